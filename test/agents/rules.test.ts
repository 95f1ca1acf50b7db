import { describe, expect, it } from "vitest";
import { parseRules } from "../../src/agents/rules.js";

describe("parseRules", () => {
  it("reads the catalog's rule vocabulary", () => {
    const r = parseRules([
      "min_length:3",
      "max_length:200",
      "pattern:^https?://",
      "min:1",
      "max:100",
      "one_of:a|b|c",
    ]);
    expect(r).toMatchObject({ minLength: 3, maxLength: 200, pattern: "^https?://", min: 1, max: 100 });
    expect(r.oneOf).toEqual(["a", "b", "c"]);
    expect(r.unknown).toEqual([]);
  });

  it("accepts a few other spellings", () => {
    const r = parseRules([
      "minLength=2",
      "Max Length: 9",
      "enum: x, y",
      "format:uri",
      "not_empty",
      "required",
    ]);
    expect(r).toMatchObject({ minLength: 2, maxLength: 9, format: "url" });
    expect(r.oneOf).toEqual(["x", "y"]);
    expect(r.unknown).toEqual([]);
  });

  it("keeps what it does not understand as unknown, never throws", () => {
    const r = parseRules([
      "frobnicate:3",
      "min_length:abc",
      "pattern:([",
      "sparkly",
      42 as unknown as string,
    ]);
    expect(r.minLength).toBeUndefined();
    expect(r.pattern).toBeUndefined();
    expect(r.unknown).toEqual(["frobnicate:3", "min_length:abc", "pattern:([", "sparkly", "42"]);
  });

  it("treats null rules as none", () => {
    expect(parseRules(null)).toEqual({ unknown: [] });
  });
});
