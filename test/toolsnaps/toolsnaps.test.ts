/**
 * Tool-schema snapshots (github-mcp-server's toolsnaps): every registry tool's full `tools/list`
 * entry is stored as JSON in `__toolsnaps__/<name>.json`, written by `npm run build`
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
    expect(existsSync(file(name)), `no snapshot for ${name}: run npm run build`).toBe(true);
    expect(JSON.parse(readFileSync(file(name), "utf8"))).toEqual(JSON.parse(snapshotText(entry)));
  });

  it("has a snapshot for each tool and none for a tool that is gone", () => {
    const snapped = readdirSync(DIR).map((f) => f.replace(/\.json$/, ""));
    expect(snapped.sort()).toEqual(entries.map((e) => e.name).sort());
  });
});
