// Agent catalog start-up benchmarks (run `npm run build` first): the built server over stdio with
// a ~200-agent catalog (the sandbox's own agents plus 180 generated ones) and three dedicated
// agent tools. Measures spawn → first tools/list answered, cold (empty cache dir) and cached,
// plus a cold start against a catalog slowed by 2 s, and spawn → exact agent tools after a cold
// start. Cold, the first tools/list waits for just the named agents' details (bounded at ~3 s) so
// that it carries their exact schemas: the slowed catalog shows that bound's cost.
import { mkdtemp, readdir, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { getDefaultEnvironment, StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { startSandbox } from "../dist/sandbox/index.js";
import { median, printTable, round } from "./table.mjs";

const CLI = fileURLToPath(new URL("../dist/cli.cjs", import.meta.url));
const RUNS = 5;
const AGENT_TOOLS = "ecommerce_search_listing,news_article,generated_travel_0002";
const EXTRA_AGENTS = 180;

/** Spawns the server; resolves once the first tools/list answered. */
async function start(sandbox, cacheDir, extraEnv = {}) {
  const t0 = performance.now();
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [CLI],
    env: {
      ...getDefaultEnvironment(),
      WEBDATA_BASE_URL: sandbox.url,
      WEBDATA_API_KEY: "bench-agents-key",
      WEBDATA_CACHE_DIR: cacheDir,
      WEBDATA_AGENT_TOOLS: AGENT_TOOLS,
      ...extraEnv,
    },
    stderr: "ignore",
  });
  const client = new Client({ name: "bench-agents", version: "0" });
  let changed;
  const changedAt = new Promise((resolve) => {
    changed = resolve;
  });
  client.fallbackNotificationHandler = async (n) => {
    if (n.method === "notifications/tools/list_changed") changed(performance.now() - t0);
  };
  await client.connect(transport);
  const { tools } = await client.listTools();
  const listMs = performance.now() - t0;
  const exact = tools.filter(
    (t) => t.name.startsWith("agent_") && Object.keys(t.inputSchema.properties ?? {}).length > 0,
  );
  return { client, listMs, tools, exactAgentTools: exact.length, changedAt };
}

async function waitForExact(client, t0Offset) {
  for (;;) {
    const { tools } = await client.listTools();
    const exact = tools.filter(
      (t) => t.name.startsWith("agent_") && Object.keys(t.inputSchema.properties ?? {}).length > 0,
    );
    if (exact.length === AGENT_TOOLS.split(",").length) return performance.now() - t0Offset;
    await new Promise((r) => setTimeout(r, 20));
  }
}

/** The catalog cache is written (what a later start lists the agent tools from). */
async function cacheReady(dir) {
  for (;;) {
    const files = await readdir(dir).catch(() => []);
    if (files.some((f) => /^agents-[0-9a-f]+\.json$/.test(f))) return;
    await new Promise((r) => setTimeout(r, 20));
  }
}

export async function run() {
  const sandbox = await startSandbox({ extraAgents: EXTRA_AGENTS, rateLimit: 1_000_000 });
  const slow = await startSandbox({ extraAgents: EXTRA_AGENTS, rateLimit: 1_000_000, catalogDelayMs: 2000 });
  const dirs = [];
  const mkdir = async () => {
    const d = await mkdtemp(join(tmpdir(), "bench-agents-"));
    dirs.push(d);
    return d;
  };
  try {
    const catalogSize = (
      await (
        await fetch(`${sandbox.url}/v1/agents?limit=250`, { headers: { authorization: "Bearer k" } })
      ).json()
    ).length;
    const cold = [];
    const full = [];
    let exactCold = true;
    for (let i = 0; i < RUNS; i++) {
      const dir = await mkdir();
      const t0 = performance.now();
      const s = await start(sandbox, dir);
      cold.push(s.listMs);
      exactCold &&= s.exactAgentTools === AGENT_TOOLS.split(",").length;
      full.push(await waitForExact(s.client, t0));
      await cacheReady(dir);
      await s.client.close();
    }
    const warmDir = dirs[0];
    const cached = [];
    let exactFromCache = true;
    for (let i = 0; i < RUNS; i++) {
      const s = await start(sandbox, warmDir);
      cached.push(s.listMs);
      exactFromCache &&= s.exactAgentTools === AGENT_TOOLS.split(",").length;
      await s.client.close();
    }
    // Baseline: the same server with no agent part at all (no catalog, no agent tools).
    const baseline = [];
    for (let i = 0; i < RUNS; i++) {
      const s = await start(sandbox, await mkdir(), {
        WEBDATA_AGENT_TOOLS: "",
        WEBDATA_TOOLSETS: "search,extract,templates,crawl,health,tasks,jobs",
      });
      baseline.push(s.listMs);
      await s.client.close();
    }
    const slowCold = [];
    for (let i = 0; i < 3; i++) {
      const s = await start(slow, await mkdir());
      slowCold.push(s.listMs);
      await s.client.close();
    }
    const c = median(cold);
    const k = median(cached);
    const sl = median(slowCold);
    const base = median(baseline);
    const within = (v) => v <= base + 150;
    const vsBase = `baseline ${round(base)} ms`;
    const target = "<= baseline + 150 ms";
    return [
      {
        metric: "catalog size",
        value: catalogSize,
        unit: "agents",
        target: ">= 200",
        ok: catalogSize >= 200,
      },
      { metric: "spawn → tools/list, no agent part (baseline), median", value: base, unit: "ms" },
      {
        metric: "spawn → tools/list, cold (empty cache), median",
        value: c,
        unit: "ms",
        compare: vsBase,
        target,
        ok: within(c),
      },
      {
        metric: "spawn → tools/list, cached, median",
        value: k,
        unit: "ms",
        compare: vsBase,
        target,
        ok: within(k),
      },
      {
        metric: "cached: first tools/list has exact agent_* schemas",
        value: exactFromCache ? "yes" : "no",
        target: "yes",
        ok: exactFromCache,
      },
      {
        metric: "cold: first tools/list has exact agent_* schemas",
        value: exactCold ? "yes" : "no",
        target: "yes",
        ok: exactCold,
      },
      {
        metric: "spawn → tools/list, cold, catalog delayed 2 s, median",
        value: sl,
        unit: "ms",
        compare: vsBase,
        target: "<= baseline + 3,000 ms (the bounded details fetch)",
        ok: sl <= base + 3000,
      },
      {
        metric: "spawn → exact agent tools after a cold start, median",
        value: median(full),
        unit: "ms",
        compare: `first tools/list ${round(c)} ms`,
      },
    ];
  } finally {
    await sandbox.close();
    await slow.close();
    for (const d of dirs) await rm(d, { recursive: true, force: true });
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  printTable(await run());
}
