import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { makeRedactor, redact, redactDeep } from "../../src/api/redact.js";
import { toCallToolResult } from "../../src/server/run-tool.js";

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

describe("a tool result on its way out (toCallToolResult)", () => {
  const secret = "wdk_QZXJVKWPRTMNHGZXQ";
  const redactKey = makeRedactor([secret]);

  it("redacts a resource link's name, description and media type, and an image's media type", () => {
    const result = toCallToolResult(
      {
        text: "a file",
        structured: { content_type: `UNKNOWN_${secret}` },
        images: [{ data: "aGVsbG8=", mimeType: `image/${secret}` }],
        links: [
          {
            uri: "webdata://media/1",
            name: `file-${secret}`,
            description: `File (UNKNOWN_${secret}, 806 bytes)`,
            mimeType: `UNKNOWN_${secret}`,
          },
        ],
      },
      redactKey,
    );
    expect(JSON.stringify(result)).not.toContain("QZXJVKWP");
    expect(result.content[2]).toMatchObject({ type: "resource_link", uri: "webdata://media/1" });
    expect(result.content[1]).toMatchObject({ type: "image", data: "aGVsbG8=" });
  });
});
