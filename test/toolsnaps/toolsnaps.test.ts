/**
 * Tool-schema snapshots (github-mcp-server's toolsnaps): every registry tool's full `tools/list`
 * entry is stored as JSON in `__toolsnaps__/<name>.json`. A changed entry fails with a diff, a new
 * tool without a snapshot or a snapshot without a tool fails too. After a deliberate change:
 *   npm run toolsnaps        (UPDATE_TOOLSNAPS=1 vitest run test/toolsnaps)
 * and review the JSON diff in the commit.
 */
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { listTools } from "../../src/server/list-tools.js";
import { ALL_TOOLS } from "../../src/tools/registry.js";

const DIR = fileURLToPath(new URL("./__toolsnaps__", import.meta.url));
const UPDATE = process.env.UPDATE_TOOLSNAPS === "1";
const entries = listTools(ALL_TOOLS);
const file = (name: string) => join(DIR, `${name}.json`);
const text = (value: unknown) => `${JSON.stringify(value, null, 2)}\n`;

if (UPDATE) {
  mkdirSync(DIR, { recursive: true });
  for (const f of readdirSync(DIR)) rmSync(join(DIR, f));
  for (const entry of entries) writeFileSync(file(entry.name), text(entry));
}

describe("toolsnaps", () => {
  it.each(entries.map((e) => [e.name, e] as const))("%s lists as its snapshot says", (name, entry) => {
    expect(existsSync(file(name)), `no snapshot for ${name}: run npm run toolsnaps`).toBe(true);
    expect(JSON.parse(readFileSync(file(name), "utf8"))).toEqual(JSON.parse(text(entry)));
  });

  it("has a snapshot for each tool and none for a tool that is gone", () => {
    const snapped = readdirSync(DIR).map((f) => f.replace(/\.json$/, ""));
    expect(snapped.sort()).toEqual(entries.map((e) => e.name).sort());
  });
});
