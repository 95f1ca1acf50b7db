import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { anyCodePoint, unicodeString, webUrl } from "../helpers/unicode-arbitraries.js";

describe("the fuzz files' Unicode arbitraries", () => {
  it("draw code points from the whole range, surrogates excluded", () => {
    const points = fc.sample(anyCodePoint, 2_000).map((c) => c.codePointAt(0) ?? -1);
    expect(points.every((p) => p >= 0 && p <= 0x10ffff && (p < 0xd800 || p > 0xdfff))).toBe(true);
    expect(points.some((p) => p > 0xffff)).toBe(true);
    expect(points.some((p) => p > 0xe000 && p <= 0xffff)).toBe(true);
  });

  it("make well-formed strings within the length asked", () => {
    fc.assert(
      fc.property(unicodeString({ minLength: 2, maxLength: 5 }), (s) => {
        const length = [...s].length;
        return !/\p{Surrogate}/u.test(s) && length >= 2 && length <= 5;
      }),
    );
  });

  it("make web URLs that parse, with the query and fragment when asked", () => {
    const urls = fc.sample(webUrl({ withQueryParameters: true, withFragments: true }), 500);
    for (const url of urls) expect(["http:", "https:"]).toContain(new URL(url).protocol);
    expect(urls.some((u) => new URL(u).search !== "")).toBe(true);
    expect(urls.some((u) => new URL(u).hash !== "")).toBe(true);
    expect(urls.some((u) => /%F[0-4]/.test(new URL(u).pathname))).toBe(true);
  });
});
