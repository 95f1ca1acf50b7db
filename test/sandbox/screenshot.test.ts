/** The sandbox's page "screenshots": deterministic PNGs, encoded once per look. */
import { inflateSync } from "node:zlib";
import { PNG } from "pngjs";
import { describe, expect, it } from "vitest";
import { screenshotPng } from "../../src/sandbox/screenshot.js";

const pixel = (png: PNG, x: number, y: number) => [
  ...png.data.subarray((y * png.width + x) * 4, (y * png.width + x) * 4 + 4),
];

describe("screenshotPng", () => {
  it("draws a 320×240 PNG: a title bar, then one grey bar per line of text", () => {
    const png = PNG.sync.read(screenshotPng("Acme", "first line\n\n  \nsecond"));
    expect([png.width, png.height]).toEqual([320, 240]);
    expect(pixel(png, 12, 40)).toEqual([200, 200, 200, 255]);
    expect(pixel(png, 12, 52)).toEqual([200, 200, 200, 255]);
    expect(pixel(png, 12, 64)).toEqual([255, 255, 255, 255]);
    expect(pixel(png, 12, 10)).not.toEqual([255, 255, 255, 255]);
  });

  it("gives other pages other images, and the same look the same bytes, encoded once", () => {
    const a = screenshotPng("Acme", "one\ntwo");
    expect(screenshotPng("Acme", "one\ntwo")).toBe(a);
    // The bars stand for the lines' lengths: text of the same shape looks the same.
    expect(screenshotPng("Acme", "uno\ndos")).toBe(a);
    expect(screenshotPng("Acme", "one\ntwo\nthree").equals(a)).toBe(false);
    expect(screenshotPng("Other", "one\ntwo").equals(a)).toBe(false);
  });

  it("stores every row unfiltered, so encoding does not try five filters a row", () => {
    const bytes = screenshotPng("Filters", "a line\nanother line");
    const idat: Buffer[] = [];
    for (let at = 8; at < bytes.length; ) {
      const length = bytes.readUInt32BE(at);
      if (bytes.toString("latin1", at + 4, at + 8) === "IDAT")
        idat.push(bytes.subarray(at + 8, at + 8 + length));
      at += 12 + length;
    }
    const rows = inflateSync(Buffer.concat(idat));
    const stride = 1 + 320 * 4;
    expect(rows.length).toBe(stride * 240);
    const filters = new Set(Array.from({ length: 240 }, (_, y) => rows[y * stride]));
    expect([...filters]).toEqual([0]);
  });
});
