/**
 * The CLI's sandbox keys (src/cli/sandbox-key.ts): the redactor removes any five characters in a
 * row of a key (and of its encoded forms) from what the server returns, so a key must share no
 * run with the ids the sandbox mints. Its letters are never hex: task ids and UUIDs pass untouched.
 */
import { randomUUID } from "node:crypto";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { makeRedactor, REDACTED } from "../../src/api/redact.js";
import { sandboxKey } from "../../src/cli/sandbox-key.js";

describe("sandboxKey", () => {
  it("is the prefix and 24 letters that never occur in hex, different each time", () => {
    const keys = Array.from({ length: 50 }, () => sandboxKey("sbx_"));
    for (const key of keys) expect(key).toMatch(/^sbx_[g-zG-Z]{24}$/);
    expect(new Set(keys).size).toBe(keys.length);
    expect(sandboxKey()).toMatch(/^[g-zG-Z]{24}$/);
  });

  it("leaves every hex id whole when the key is redacted (a hex key cut about one in 1,200)", () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 2 ** 31 }), (n) => {
        const redact = makeRedactor([sandboxKey("sbx_")]);
        const id = randomUUID();
        const hex = n.toString(16).padStart(8, "0").repeat(4);
        return !redact(`${id} ${hex}`).includes(REDACTED);
      }),
      { numRuns: 300 },
    );
  });
});
