#!/usr/bin/env node
/**
 * Runs the @modelcontextprotocol/conformance (0.1.13) server scenarios that apply to this server
 * against its Streamable HTTP endpoint.
 *
 *   node scripts/conformance.mjs                 # spawns `node dist/cli.js --http --sandbox --port 0`
 *   node scripts/conformance.mjs --url URL       # an already running server
 *
 * Exits 1 when a scenario fails. The other scenarios of the suite (tools-call-*, resources-*,
 * prompts-*, completion-complete, elicitation-*, json-schema-2020-12) call
 * the suite's own test tools, prompts and resources (`test_simple_text`, `test://…`), which this
 * server does not have by design, so they do not apply.
 * `test/http/conformance.test.ts` runs the same scenarios under `npm test`.
 */
import { spawn } from "node:child_process";
import { mkdtemp, readdir, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

export const SCENARIOS = [
  "server-initialize",
  "ping",
  "tools-list",
  "logging-set-level",
  "dns-rebinding-protection",
  "server-sse-multiple-streams",
  // Priming event and retry field pass; its resume check wants the suite's test_reconnection tool
  // and stays a warning (our own resume tests: test/fleet/).
  "server-sse-polling",
];

const ROOT = fileURLToPath(new URL("..", import.meta.url));
const CONFORMANCE = join(ROOT, "node_modules/@modelcontextprotocol/conformance/dist/index.js");
const CLI = join(ROOT, "dist/cli.js");

function run(args, { timeoutMs = 60_000 } = {}) {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, args, { stdio: ["ignore", "pipe", "pipe"] });
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

async function findChecks(dir) {
  for (const entry of await readdir(dir, { withFileTypes: true, recursive: true })) {
    if (entry.isFile() && entry.name === "checks.json") {
      return JSON.parse(await readFile(join(entry.parentPath ?? entry.path, entry.name), "utf8"));
    }
  }
  return [];
}

/**
 * One scenario through the conformance CLI. `passed`: exit 0, at least one SUCCESS and no
 * FAILURE among its checks.
 */
export async function runScenario(url, scenario) {
  const out = await mkdtemp(join(tmpdir(), "wd-conformance-"));
  try {
    const { code, output } = await run([
      CONFORMANCE,
      "server",
      "--url",
      url,
      "--scenario",
      scenario,
      "-o",
      out,
    ]);
    const checks = (await findChecks(out)).map((c) => ({
      id: c.id,
      status: c.status,
      error: c.errorMessage,
    }));
    const passed =
      code === 0 && checks.some((c) => c.status === "SUCCESS") && !checks.some((c) => c.status === "FAILURE");
    return { scenario, passed, exitCode: code, checks, output };
  } finally {
    await rm(out, { recursive: true, force: true });
  }
}

export function runScenarios(url, scenarios = SCENARIOS) {
  return Promise.all(scenarios.map((s) => runScenario(url, s)));
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
      child.once("exit", () => resolve());
      child.kill("SIGTERM");
    });
  return { url, stop };
}

async function main() {
  const i = process.argv.indexOf("--url");
  const given = i > 0 ? process.argv[i + 1] : undefined;
  const server = given ? { url: given, stop: async () => {} } : await spawnServer();
  try {
    const results = await runScenarios(server.url);
    for (const r of results) {
      const counts = r.checks.map((c) => c.status).join(", ") || "no checks";
      process.stdout.write(`${r.passed ? "PASS" : "FAIL"}  ${r.scenario}  (${counts})\n`);
      for (const c of r.checks)
        if (c.status === "FAILURE") process.stdout.write(`      ${c.id}: ${c.error}\n`);
    }
    process.exitCode = results.every((r) => r.passed) ? 0 : 1;
  } finally {
    await server.stop();
  }
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  main().catch((error) => {
    process.stderr.write(`conformance: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exit(1);
  });
}
