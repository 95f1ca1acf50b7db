import { describe, expect, it } from "vitest";
import { clip, estimateTokens, TOKEN_CAP } from "../../src/tools/result.js";

describe("clip", () => {
  it("cuts at max_chars and says where to read on", () => {
    expect(clip("abcdefghij", 4)).toEqual({ text: "abcd", total_chars: 10, next_offset: 4 });
    expect(clip("abcdefghij", 4, 8)).toEqual({ text: "ij", total_chars: 10 });
  });

  it("keeps dense text (CJK) under the token cap", () => {
    const cjk = "漢字".repeat(20_000);
    const part = clip(cjk, 40_000);
    expect(estimateTokens(part.text)).toBeLessThanOrEqual(TOKEN_CAP);
    expect(part.next_offset).toBe(part.text.length);
    const ascii = "word ".repeat(8_000);
    expect(clip(ascii, 40_000).text).toHaveLength(36_000);
  });
});
