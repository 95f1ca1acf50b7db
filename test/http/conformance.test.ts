/**
 * The official MCP conformance suite (@modelcontextprotocol/conformance, pinned) against the built
 * server over Streamable HTTP in sandbox mode, for both revisions it serves: the frozen
 * requirement sets of 2025-11-25 and 2026-07-28, through `scripts/conformance.mjs` (spawned as
 * it is run by hand; it brings Node 22 from the npm registry when this Node is older). Every
 * applicable scenario passes; the ones that cannot apply are listed with the reason in the script
 * (and docs/protocol-revisions.md).
 */
import { spawn } from "node:child_process";
import { fileURLToPath } from "node:url";
import { beforeAll, describe, expect, it } from "vitest";
import { NOT_APPLICABLE, REVISIONS } from "../../scripts/conformance.mjs";

interface Verdict {
  scenario: string;
  applies: boolean;
  passed?: boolean;
  failed?: Array<{ id: string; error?: string }>;
}
interface Run {
  revision: string;
  verdicts: Verdict[];
}

const SCRIPT = fileURLToPath(new URL("../../scripts/conformance.mjs", import.meta.url));
let runs: Run[];
let exitCode: number | null;
let stderr = "";

beforeAll(async () => {
  const child = spawn(process.execPath, [SCRIPT, "--json"], { stdio: ["ignore", "pipe", "pipe"] });
  let stdout = "";
  child.stdout.on("data", (d) => {
    stdout += d;
  });
  child.stderr.on("data", (d) => {
    stderr += d;
  });
  exitCode = await new Promise((resolve) => child.on("close", resolve));
  runs = JSON.parse(stdout.trim().split("\n").at(-1) ?? "[]");
}, 240_000);

describe.each(REVISIONS)("conformance --requirements %s", (revision) => {
  it("every applicable scenario passes", () => {
    const run = runs.find((r) => r.revision === revision);
    expect(run, stderr).toBeDefined();
    const failing = run!.verdicts.filter((v) => v.applies && !v.passed);
    expect(failing, JSON.stringify(failing, null, 2)).toEqual([]);
    expect(run!.verdicts.filter((v) => v.applies).length).toBeGreaterThanOrEqual(7);
  });

  it("every scenario the suite ran is either applicable or listed with its reason", () => {
    const run = runs.find((r) => r.revision === revision)!;
    const listed = NOT_APPLICABLE[revision as keyof typeof NOT_APPLICABLE];
    for (const v of run.verdicts.filter((x) => !x.applies)) expect(listed).toHaveProperty([v.scenario]);
    expect(exitCode, stderr).toBe(0);
  });
});
