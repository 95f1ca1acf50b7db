/**
 * A small, deterministic PNG "screenshot" of a page: a title bar coloured from the page title's
 * hash and grey bars standing for the lines of text, so different pages give different images.
 */
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

/** PNG bytes for a page with this title and text. */
export function screenshotPng(title: string, text: string): Buffer {
  const png = new PNG({ width: WIDTH, height: HEIGHT });
  fill(png, 0, 0, WIDTH, HEIGHT, [255, 255, 255]);
  const h = hash32(title);
  fill(png, 0, 0, WIDTH, BAR, [h & 0xff, (h >>> 8) & 0xff, (h >>> 16) & 0xff]);
  const lines = text.split(/\n+/).filter((l) => l.trim() !== "");
  let y = BAR + 12;
  for (const line of lines) {
    if (y + 6 > HEIGHT - 8) break;
    const width = Math.max(12, Math.min(WIDTH - 24, line.length * 3));
    fill(png, 12, y, width, 6, [200, 200, 200]);
    y += 12;
  }
  return PNG.sync.write(png);
}
