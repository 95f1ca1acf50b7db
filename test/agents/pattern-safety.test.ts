/**
 * Patterns from the upstream catalog (agent `pattern` rules, template JSON Schema `pattern`s) run
 * on a linear-time engine, or are not run at all: no argument can stall the process (issue 23;
 * a 30-character argument against `^(a+)+$` took 5.3 s on the backtracking engine, and each
 * extra character doubles it). The inputs below would never finish on a backtracking engine, so
 * on one these tests do not end; the time itself is measured outside the tests.
 */
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { buildParamSchema } from "../../src/agents/input-schema.js";
import { templateInputSchema } from "../../src/agents/json-schema.js";
import { matchesPattern } from "../../src/sandbox/regex.js";
import { checkJsonSchema } from "../../src/sandbox/templates/json-schema.js";
import { prop } from "./fixtures.js";

const EVIL = ["^(a+)+$", "^(a|a)*$", "^(\\w+\\s?)*$", "^([a-z0-9]+\\.?)+[a-z]$"];
const attack = `${"a".repeat(5_000)}!`;

describe("agent pattern rules", () => {
  it.each(EVIL)("%s rejects a 5,000-character near-miss and accepts a match", (pattern) => {
    const { schema } = buildParamSchema(
      prop({ name: "handle", type: "string", rules: [`pattern:${pattern}`] }),
    );
    expect(schema.safeParse(attack).success).toBe(false);
    expect(schema.safeParse("aaaa").success).toBe(true);
  });

  it("applies to each item of a string array", () => {
    const { schema } = buildParamSchema(
      prop({ name: "handles", type: "array[string]", rules: ["pattern:^(a+)+$"] }),
    );
    expect(schema.safeParse(["aa", attack]).success).toBe(false);
    expect(schema.safeParse(["aa", "a"]).success).toBe(true);
  });

  it("keeps the pattern in the advertised JSON Schema", () => {
    const { schema } = buildParamSchema(
      prop({ name: "sku", type: "string", rules: ["pattern:^ACME-[A-Z0-9-]+$"] }),
    );
    expect((z.toJSONSchema(schema) as { pattern?: string }).pattern).toBe("^ACME-[A-Z0-9-]+$");
    expect(schema.safeParse("ACME-X1").success).toBe(true);
    expect(schema.safeParse("acme-x1").success).toBe(false);
  });

  it("does not run a pattern the linear engine cannot (backreference, lookaround), and says so", () => {
    for (const pattern of ["^(a+)\\1$", "^(?=a)(a+)+$"]) {
      const built = buildParamSchema(prop({ name: "code", type: "string", rules: [`pattern:${pattern}`] }));
      expect(built.schema.safeParse(attack).success).toBe(true);
      expect(built.notes.join(" ")).toMatch(/not checked/);
    }
  });
});

describe("template JSON Schema patterns", () => {
  it("reject a 5,000-character near-miss, nested too", () => {
    const input = {
      type: "object",
      properties: {
        sku: { type: "string", pattern: "^(a+)+$" },
        tags: { type: "array", items: { type: "string", pattern: "^(a|a)*$" } },
      },
    };
    const { schema } = templateInputSchema(input);
    expect(schema.safeParse({ sku: attack }).success).toBe(false);
    expect(schema.safeParse({ tags: ["a", attack] }).success).toBe(false);
    expect(schema.safeParse({ sku: "aaa", tags: ["aa"] }).success).toBe(true);
  });
});

describe("the sandbox", () => {
  it.each(EVIL)("matches %s in linear time", (pattern) => {
    expect(matchesPattern(pattern, attack)).toBe(false);
    expect(matchesPattern(pattern, "aaaa")).toBe(true);
  });

  it("validates template params with it", () => {
    const issues = checkJsonSchema({ type: "string", pattern: "^(a+)+$" } as never, attack, [
      "body",
      "params",
    ]);
    expect(issues.length).toBe(1);
  });

  it("runs each pattern of one schema as itself, not as the first one compiled", () => {
    const schema = {
      type: "object",
      properties: {
        site: { type: "string", pattern: "^https?://" },
        zip: { type: "string", pattern: "^[A-Z]{3}$" },
      },
    };
    expect(checkJsonSchema(schema as never, { site: "https://a.example", zip: "GYG" }, [])).toEqual([]);
    expect(
      checkJsonSchema(schema as never, { site: "https://a.example", zip: "gyg" }, []).map((i) => i.loc),
    ).toEqual([["zip"]]);
  });
});
