/**
 * The validator createServer hands the SDK's Server: this server elicits nothing, so it loads no
 * Ajv, and a request for a validator says why instead of validating nothing. The built server
 * must not load Ajv at all (it cost every server start some 40-100 ms of CPU).
 */
import { readdirSync, readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { NoElicitationValidator } from "../../src/server/json-schema-validator.js";

const schema = { type: "object", properties: { n: { type: "number" } }, required: ["n"] } as const;

describe("NoElicitationValidator", () => {
  it("refuses with the reason and what to do", () => {
    expect(() => new NoElicitationValidator().getValidator(schema)).toThrow(
      /no elicitation requests.*Ajv provider/,
    );
  });

  it("no source file elicits (else it would need a real validator)", () => {
    const files = (dir: string): string[] =>
      readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
        e.isDirectory() ? files(`${dir}/${e.name}`) : e.name.endsWith(".ts") ? [`${dir}/${e.name}`] : [],
      );
    const eliciting = files("src").filter((f) =>
      /\belicitInput\s*\(|elicitation\/create/.test(readFileSync(f, "utf8")),
    );
    expect(eliciting).toEqual([]);
  });

  it("the 2025 stdio server's runtime loads no Ajv (npm run build first)", () => {
    // The runtime dist/stdio.cjs loads on first need: one CommonJS file (scripts/bundle.mjs).
    expect(readFileSync("dist/stdio.cjs", "utf8")).toContain('__import("./runtime.cjs")');
    const runtime = readFileSync("dist/runtime.cjs", "utf8");
    expect(runtime).toContain("// src/server/runtime.ts");
    expect(runtime).not.toMatch(/ajv-formats|new Ajv\(|^\/\/ node_modules\/ajv\//m);
  });
});
