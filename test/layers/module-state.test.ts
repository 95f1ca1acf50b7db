/**
 * The static check that stands in for test isolation (scripts/module-state.mjs, run by
 * `npm run lint`; docs/testing.md "What stands in for full isolation"): src/ holds no module state
 * beyond its allowed list, and the check finds each kind of state it is meant to find.
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
// @ts-expect-error a plain .mjs script without types
import { ALLOWED, moduleState } from "../../scripts/module-state.mjs";

interface Found {
  file: string;
  name: string;
  kind: string;
  allowed?: string;
}

const dir = mkdtempSync(join(tmpdir(), "module-state-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe("module state", () => {
  it("src/ has none but the allowed, each allowed entry still exists and has a reason", () => {
    const found: Found[] = moduleState("src");
    expect(found.filter((f) => !f.allowed)).toEqual([]);
    for (const a of ALLOWED as { file: string; name: string; reason: string }[]) {
      expect(a.reason.length).toBeGreaterThan(10);
      expect(found.some((f) => f.file === a.file && f.name === a.name)).toBe(true);
    }
  });

  it("finds let/var, mutated collections, arrays and objects, and a collection handed to a mutator", () => {
    writeFileSync(
      join(dir, "offender.ts"),
      [
        "export let count = 0;",
        "var legacy = 1;",
        "const seen = new Set<string>();",
        "export const remember = (s: string) => seen.add(s);",
        "const list: string[] = [];",
        "export const push = (s: string) => list.push(s);",
        "const bag = {} as Record<string, number>;",
        "export const put = (k: string) => { bag[k] = 1; };",
        "const cache = new Map<string, number>();",
        "const fill = (m: Map<string, number>) => m.set('a', 1);",
        "export const warm = () => fill(cache);",
        "const READ_ONLY = new Set(['a']);",
        "export const has = (s: string) => READ_ONLY.has(s);",
        "const TABLE = { a: 1 };",
        "export const at = (k: 'a') => TABLE[k];",
      ].join("\n"),
    );
    const names = (moduleState(dir, []) as Found[]).map((f) => f.name).sort();
    expect(names).toEqual(["bag", "cache", "count", "legacy", "list", "seen"]);
  });
});
