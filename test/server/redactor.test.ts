import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { makeRedactor, redact, redactDeep } from "../../src/api/redact.js";

describe("makeRedactor", () => {
  const secret = "wdk_QZXJVKWPRTMNHGZXQ";
  const fast = makeRedactor([secret, "user:pass-word"]);

  it("replaces every run of more than 4 characters of a secret", () => {
    expect(fast(`key=${secret}; part=JVKWPR; short=QZXJ`)).toBe(
      "key=[redacted]; part=[redacted]; short=QZXJ",
    );
    expect(fast("no secrets here")).toBe("no secrets here");
  });

  it("agrees with the client's redact() on arbitrary text", () => {
    const alphabet = fc.constantFrom(
      ...["wdk_QZXJVKWPRTMNHG user:pass-word abc".split(""), "é", "€", "😀"].flat(),
    );
    fc.assert(
      fc.property(fc.array(alphabet, { maxLength: 80 }), (chars) => {
        const text = chars.join("");
        expect(fast(text)).toBe(redact(text, [secret, "user:pass-word"]));
      }),
      { numRuns: 2000 },
    );
  });

  it("handles secrets made of characters that are special in a regular expression", () => {
    const odd = "a]b^c\\d-e[f$g.h*";
    const oddRedactor = makeRedactor([odd]);
    const alphabet = fc.constantFrom(...`${odd} xyz`.split(""));
    fc.assert(
      fc.property(fc.array(alphabet, { maxLength: 60 }), (chars) => {
        const text = chars.join("");
        expect(oddRedactor(text)).toBe(redact(text, [odd]));
      }),
      { numRuns: 2000 },
    );
    expect(oddRedactor(`x${odd}y`)).toBe("x[redacted]y");
  });

  it("redactDeep walks objects and arrays and keeps untouched values", () => {
    const value = { a: [`x ${secret}`, 1, { b: "clean" }], c: null };
    expect(redactDeep(value, fast)).toEqual({ a: ["x [redacted]", 1, { b: "clean" }], c: null });
    const clean = { a: ["clean"] };
    expect(redactDeep(clean, fast)).toBe(clean);
  });

  it("redactDeep redacts member names: an answer may echo the key as one", () => {
    const value = { parsing: { [`x_${secret}`]: { ok: 1 } } };
    expect(redactDeep(value, fast)).toEqual({ parsing: { "x_[redacted]": { ok: 1 } } });
  });
});
