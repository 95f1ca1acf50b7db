/**
 * Tool-schema snapshots (github-mcp-server's toolsnaps): every registry tool's full `tools/list`
 * entry is stored as JSON in `__toolsnaps__/<name>.json`, written only by `npm run generate`
 * (scripts/generated.mjs) and checked by `npm run lint`. This test checks them against the
 * registry in src/: a changed entry fails with a diff, so does a missing or leftover snapshot.
 * Review the JSON diff in the commit.
 */
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { snapshotText } from "../../scripts/registry-docs.mjs";
import { listTools } from "../../src/server/list-tools.js";
import { ALL_TOOLS } from "../../src/tools/registry.js";

const DIR = fileURLToPath(new URL("./__toolsnaps__", import.meta.url));
const entries = listTools(ALL_TOOLS);
const file = (name: string) => join(DIR, `${name}.json`);

describe("toolsnaps", () => {
  it.each(entries.map((e) => [e.name, e] as const))("%s lists as its snapshot says", (name, entry) => {
    expect(existsSync(file(name)), `no snapshot for ${name}: run npm run generate`).toBe(true);
    expect(JSON.parse(readFileSync(file(name), "utf8"))).toEqual(JSON.parse(snapshotText(entry)));
  });

  it("has a snapshot for each tool and none for a tool that is gone", () => {
    const snapped = readdirSync(DIR).map((f) => f.replace(/\.json$/, ""));
    expect(snapped.sort()).toEqual(entries.map((e) => e.name).sort());
  });
});

describe("generated files in CI", () => {
  const root = fileURLToPath(new URL("../../", import.meta.url));
  const scripts: Record<string, string> = JSON.parse(
    readFileSync(join(root, "package.json"), "utf8"),
  ).scripts;
  const ci = readFileSync(join(root, ".ci/run"), "utf8");
  /** Runs of scripts/generated.mjs that write (no --check) in a command line. */
  const writes = (line: string) => /generated\.mjs(?!\s+--check)/.test(line);

  it("only npm run generate writes them: the build, npm test and lint compare", () => {
    expect(writes(scripts.generate)).toBe(true);
    for (const name of ["build", "test", "lint", "prepack", "bundle"])
      expect(writes(scripts[name]), name).toBe(false);
    expect(scripts.lint).toContain("generated.mjs --check");
  });

  it(".ci/run checks them before the tests and fails on any tracked file its steps changed", () => {
    const steps = ci.split("\n").filter((l) => /^\s*(npm|node|git) /.test(l));
    expect(steps.some((l) => l.trim().startsWith("npm run generate") || writes(l))).toBe(false);
    const lint = steps.findIndex((l) => l.trim() === "npm run lint");
    expect(lint).toBeGreaterThan(-1);
    expect(lint).toBeLessThan(steps.findIndex((l) => l.trim() === "npm test"));
    expect(steps.at(-1)).toMatch(/git diff --exit-code/);
  });
});
