/**
 * A small, deterministic PNG "screenshot" of a page: a title bar coloured from the page title's
 * hash and grey bars standing for the lines of text, so different pages give different images.
 */
import { LRUCache } from "lru-cache";
import { PNG } from "pngjs";
import { hash32 } from "./hash.js";

const WIDTH = 320;
const HEIGHT = 240;
const BAR = 28;

function fill(png: PNG, x0: number, y0: number, w: number, h: number, rgb: [number, number, number]): void {
  for (let y = y0; y < Math.min(HEIGHT, y0 + h); y++) {
    for (let x = x0; x < Math.min(WIDTH, x0 + w); x++) {
      const i = (y * WIDTH + x) * 4;
      png.data[i] = rgb[0];
      png.data[i + 1] = rgb[1];
      png.data[i + 2] = rgb[2];
      png.data[i + 3] = 255;
    }
  }
}

/** The widths of the grey bars that stand for `text`'s lines, as many as fit under the title bar. */
function barWidths(text: string): number[] {
  const widths: number[] = [];
  const lines = text.split(/\n+/).filter((l) => l.trim() !== "");
  for (let y = BAR + 12, i = 0; i < lines.length && y + 6 <= HEIGHT - 8; i++, y += 12)
    widths.push(Math.max(12, Math.min(WIDTH - 24, lines[i].length * 3)));
  return widths;
}

/** The title bar takes its colour from the title's hash `h`. */
function draw(h: number, widths: readonly number[]): Buffer {
  const png = new PNG({ width: WIDTH, height: HEIGHT });
  png.data.fill(255); // white, opaque
  fill(png, 0, 0, WIDTH, BAR, [h & 0xff, (h >>> 8) & 0xff, (h >>> 16) & 0xff]);
  for (const [i, width] of widths.entries()) fill(png, 12, BAR + 12 + 12 * i, width, 6, [200, 200, 200]);
  return PNG.sync.write(png, ENCODING);
}

/**
 * Rows unfiltered, zlib's default strategy and level. pngjs by default tries all five row filters
 * on every row and packs with run-length matching only: 19–24 ms an image against 4–6 ms now
 * (about 930 against 1,040 bytes), and 263–277 against 15–28 ms in the test workers, which run
 * without V8's optimizing compiler; it was the largest single cost of the fuzzing files.
 */
const ENCODING = { filterType: 0, deflateStrategy: 0, deflateLevel: 6 } as const;

/**
 * An image is encoded once per look (results and media are re-read often, and many pages share
 * one: the demo site's paths under any query string). Keyed by what the image is drawn from, so
 * the memo is pure; callers only read the bytes.
 */
const IMAGES_KEPT = 500;
const encoded = new LRUCache<string, Buffer>({ max: IMAGES_KEPT });

/** PNG bytes for a page with this title and text. */
export function screenshotPng(title: string, text: string): Buffer {
  const titleHash = hash32(title);
  const widths = barWidths(text);
  const key = `${titleHash}:${widths.join(",")}`;
  let png = encoded.get(key);
  if (!png) {
    png = draw(titleHash, widths);
    encoded.set(key, png);
  }
  return png;
}
