#!/usr/bin/env node
/**
 * The official MCP conformance suite (@modelcontextprotocol/conformance, pinned in package.json)
 * against this server's Streamable HTTP endpoint, for both revisions it serves: the frozen
 * requirement sets `--requirements 2025-11-25` and `--requirements 2026-07-28`.
 *
 *   node scripts/conformance.mjs                 # spawns `node dist/cli.cjs --http --sandbox --port 0`
 *   node scripts/conformance.mjs --url URL       # an already running server
 *   node scripts/conformance.mjs --json          # the verdicts as JSON (the test reads them)
 *   node scripts/conformance.mjs --install       # only install Node 22 when missing (npm run setup:node22)
 *
 * The suite needs Node 22 (it imports `fs.globSync`). When this Node is older, Node 22 comes from
 * the npm registry's `node` package, installed once into scripts/node22/ (its own package.json and
 * lockfile, so its `node` binary never shadows the project's Node in npm scripts).
 *
 * Every scenario is applicable unless NOT_APPLICABLE names it with the reason; an applicable one
 * passes when none of its checks fails (a check in EXEMPT_CHECKS, with its reason, aside) and at
 * least one succeeds. Exits 1 when an applicable scenario fails. `test/http/conformance.test.ts`
 * runs this under `npm test`; docs/protocol-revisions.md has the table.
 */
import { execFileSync, spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { mkdtemp, readdir, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

export const REVISIONS = ["2025-11-25", "2026-07-28"];

const FIXTURE_TOOL = "calls the suite's own test tool (test_*), which this server does not have by design";
const FIXTURE_PROMPT = "reads the suite's own prompts: this server has no prompts capability";
const FIXTURE_RESOURCE =
  "reads the suite's own test:// resources: this server's resources are its webdata:// links";
const TASKS_EXTENSION =
  "the io.modelcontextprotocol/tasks extension: the v2 SDK does not implement it yet (not scored for 2026-07-28); long work returns its resumable get_task handle instead";

/** Scenarios neither revision can apply to this server, with the reason. */
const NOT_APPLICABLE_TO_BOTH = {
  "completion-complete": "completion/complete of the suite's own prompt: this server has no completions",
  "tools-call-simple-text": FIXTURE_TOOL,
  "tools-call-image": FIXTURE_TOOL,
  "tools-call-audio": FIXTURE_TOOL,
  "tools-call-embedded-resource": FIXTURE_TOOL,
  "tools-call-mixed-content": FIXTURE_TOOL,
  "tools-call-error": FIXTURE_TOOL,
  "tools-call-with-progress": FIXTURE_TOOL,
  "resources-read-text": FIXTURE_RESOURCE,
  "resources-read-binary": FIXTURE_RESOURCE,
  "resources-templates-read": FIXTURE_RESOURCE,
  "prompts-list": FIXTURE_PROMPT,
  "prompts-get-simple": FIXTURE_PROMPT,
  "prompts-get-with-args": FIXTURE_PROMPT,
  "prompts-get-embedded-resource": FIXTURE_PROMPT,
  "prompts-get-with-image": FIXTURE_PROMPT,
  "json-schema-2020-12": "calls the suite's own json_schema_2020_12_tool (pending, not scored)",
};

/** Scenarios that cannot apply to this server, by revision, with the reason. */
export const NOT_APPLICABLE = {
  "2025-11-25": {
    ...NOT_APPLICABLE_TO_BOTH,
    "tools-call-with-logging": FIXTURE_TOOL,
    "tools-call-sampling": `${FIXTURE_TOOL} (and this server never asks for sampling)`,
    "tools-call-elicitation": `${FIXTURE_TOOL} (and this server never asks for elicitation)`,
    "elicitation-sep1034-defaults": FIXTURE_TOOL,
    "elicitation-sep1330-enums": FIXTURE_TOOL,
    "resources-subscribe": "resources/subscribe: this server's links are read on demand, not subscribable",
    "resources-unsubscribe":
      "resources/unsubscribe: this server's links are read on demand, not subscribable",
  },
  "2026-07-28": {
    ...NOT_APPLICABLE_TO_BOTH,
    "input-required-result-basic-elicitation": `${FIXTURE_TOOL}: this server never needs input mid-call`,
    "input-required-result-basic-sampling": `${FIXTURE_TOOL}: this server never needs input mid-call`,
    "input-required-result-basic-list-roots": `${FIXTURE_TOOL}: this server never needs input mid-call`,
    "input-required-result-request-state": `${FIXTURE_TOOL}: this server never needs input mid-call`,
    "input-required-result-multiple-input-requests": `${FIXTURE_TOOL}: this server never needs input mid-call`,
    "input-required-result-multi-round": `${FIXTURE_TOOL}: this server never needs input mid-call`,
    "input-required-result-non-tool-request": `${FIXTURE_PROMPT}: this server never needs input mid-request`,
    "input-required-result-result-type": `${FIXTURE_TOOL}: this server never needs input mid-call`,
    "input-required-result-tampered-state": `${FIXTURE_TOOL}: this server never needs input mid-call`,
    "input-required-result-capability-check": `${FIXTURE_TOOL}: this server never needs input mid-call`,
    "tasks-lifecycle": TASKS_EXTENSION,
    "tasks-capability-negotiation": TASKS_EXTENSION,
    "tasks-wire-fields": TASKS_EXTENSION,
    "tasks-request-state-removal": TASKS_EXTENSION,
    "tasks-mrtr-input": TASKS_EXTENSION,
    "tasks-request-headers": TASKS_EXTENSION,
    "tasks-dispatch-and-envelope": TASKS_EXTENSION,
    "tasks-status-notifications": TASKS_EXTENSION,
    "tasks-required-task-error": TASKS_EXTENSION,
    "tasks-mrtr-composition": TASKS_EXTENSION,
    "http-custom-header-server-validation":
      "needs a tool with x-mcp-header parameters; this server has none (pending, not scored)",
  },
};

/** Single checks of applicable scenarios that cannot apply, with the reason. */
export const EXEMPT_CHECKS = {
  "sep-2575-server-rejects-undeclared-capability": "needs the suite's test_missing_capability tool",
  "sep-2575-missing-capability-http-400": "needs the suite's test_missing_capability tool",
  "sep-2575-http-server-no-independent-requests-on-stream":
    "needs the suite's test_streaming_elicitation tool",
  "sep-2575-server-no-log-without-loglevel":
    "needs the suite's test_logging_tool (our own test: test/http/modern.test.ts)",
  "sep-2549-prompts-list-caching-hints": "this server has no prompts capability: prompts/list is -32601",
};

const ROOT = fileURLToPath(new URL("..", import.meta.url));
const CONFORMANCE = join(ROOT, "node_modules/@modelcontextprotocol/conformance/dist/index.js");
const CLI = join(ROOT, "dist/cli.cjs");
const NODE22_DIR = join(ROOT, "scripts/node22");

/** A Node that runs the suite: this one when it is 22 or newer, else the npm registry's `node@22`. */
export function suiteNode() {
  if (Number(process.versions.node.split(".")[0]) >= 22) return process.execPath;
  const bin = join(NODE22_DIR, "node_modules/.bin/node");
  if (!existsSync(bin)) {
    process.stderr.write("conformance: installing Node 22 from the npm registry into scripts/node22/\n");
    execFileSync("npm", ["ci", "--prefix", NODE22_DIR, "--no-audit", "--no-fund"], { stdio: "inherit" });
  }
  return bin;
}

function run(command, args, { timeoutMs = 120_000 } = {}) {
  return new Promise((resolve) => {
    const child = spawn(command, args, { stdio: ["ignore", "pipe", "pipe"] });
    let output = "";
    child.stdout.on("data", (d) => {
      output += d;
    });
    child.stderr.on("data", (d) => {
      output += d;
    });
    const timer = setTimeout(() => child.kill("SIGKILL"), timeoutMs);
    child.on("close", (code, signal) => {
      clearTimeout(timer);
      resolve({ code: code ?? (signal ? 1 : 0), output });
    });
  });
}

/** Each scenario's checks from an output folder (one `server-<scenario>-<timestamp>/checks.json` each). */
async function readResults(dir) {
  const results = new Map();
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    if (!entry.isDirectory()) continue;
    const scenario = entry.name.replace(/^server-/, "").replace(/-\d{4}-\d{2}-\d{2}T.*$/, "");
    const file = join(dir, entry.name, "checks.json");
    if (!existsSync(file)) continue;
    const checks = JSON.parse(await readFile(file, "utf8")).map((c) => ({
      id: c.id,
      status: c.status,
      error: c.errorMessage,
    }));
    results.set(scenario, checks);
  }
  return results;
}

/** A scenario's verdict: not applicable (with why), or passed/failed over its non-exempt checks. */
export function verdict(revision, scenario, checks) {
  const reason = NOT_APPLICABLE[revision]?.[scenario];
  if (reason) return { scenario, applies: false, reason, checks };
  const counted = checks.filter((c) => !EXEMPT_CHECKS[c.id]);
  const failed = counted.filter((c) => c.status === "FAILURE");
  const passed = failed.length === 0 && counted.some((c) => c.status === "SUCCESS");
  const exempt = checks
    .filter((c) => EXEMPT_CHECKS[c.id])
    .map((c) => ({ id: c.id, reason: EXEMPT_CHECKS[c.id] }));
  return { scenario, applies: true, passed, failed, exempt, checks };
}

/** One revision's frozen requirement set through the conformance CLI. */
export async function runRevision(url, revision) {
  const out = await mkdtemp(join(tmpdir(), "wd-conformance-"));
  try {
    const { code, output } = await run(suiteNode(), [
      CONFORMANCE,
      "server",
      "--url",
      url,
      "--requirements",
      revision,
      "-o",
      out,
    ]);
    const results = await readResults(out);
    if (results.size === 0)
      throw new Error(`conformance ${revision} produced no results (exit ${code}):\n${output}`);
    const verdicts = [...results].map(([scenario, checks]) => verdict(revision, scenario, checks));
    return { revision, exitCode: code, verdicts, output };
  } finally {
    await rm(out, { recursive: true, force: true });
  }
}

/** Spawns the built server in sandbox mode; resolves with its URL and a stop function. */
export async function spawnServer() {
  const child = spawn(process.execPath, [CLI, "--http", "--sandbox", "--port", "0"], {
    stdio: ["ignore", "ignore", "pipe"],
  });
  let err = "";
  const url = await new Promise((resolve, reject) => {
    child.stderr.on("data", (d) => {
      err += d;
      const m = /at (http:\/\/\S+\/mcp)/.exec(err);
      if (m) resolve(m[1]);
    });
    child.once("exit", () => reject(new Error(`server exited:\n${err}`)));
  });
  const stop = () =>
    new Promise((resolve) => {
      if (child.exitCode !== null || child.signalCode !== null) return resolve();
      child.once("exit", (code) => resolve(code));
      child.kill("SIGTERM");
    });
  return { url, stop };
}

function print(run) {
  process.stdout.write(`\n${run.revision}\n`);
  for (const v of run.verdicts.sort((a, b) => Number(b.applies) - Number(a.applies))) {
    if (!v.applies) {
      process.stdout.write(`  n/a   ${v.scenario}: ${v.reason}\n`);
      continue;
    }
    const counts = v.checks.map((c) => c.status).join(", ");
    process.stdout.write(`  ${v.passed ? "PASS" : "FAIL"}  ${v.scenario}  (${counts})\n`);
    for (const c of v.failed) process.stdout.write(`        ${c.id}: ${c.error}\n`);
    for (const c of v.exempt) process.stdout.write(`        exempt ${c.id}: ${c.reason}\n`);
  }
}

async function main() {
  if (process.argv.includes("--install")) return void suiteNode();
  const i = process.argv.indexOf("--url");
  const given = i > 0 ? process.argv[i + 1] : undefined;
  const server = given ? { url: given, stop: async () => {} } : await spawnServer();
  let runs;
  try {
    suiteNode();
    runs = await Promise.all(REVISIONS.map((r) => runRevision(server.url, r)));
  } finally {
    await server.stop();
  }
  const ok = runs.every((r) => r.verdicts.every((v) => !v.applies || v.passed));
  if (process.argv.includes("--json")) {
    process.stdout.write(`${JSON.stringify(runs.map(({ output: _, ...r }) => r))}\n`);
  } else runs.forEach(print);
  process.exitCode = ok ? 0 : 1;
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  main().catch((error) => {
    process.stderr.write(`conformance: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exit(1);
  });
}
