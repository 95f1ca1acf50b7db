// Generation 2 beside the build before it (issue 21: no regression): this checkout's `dist/cli.cjs`
// and the last main commit before the API generations landed (bench/baseline.mjs builds it once;
// BENCH_BASELINE_CLI overrides), both stdio against one sandbox process, each figure with new/old:
// - spawn → initialize + tools/list, median of BENCH_GEN_SPAWNS (default 10), runs interleaved;
// - tools/list tokens (o200k) per toolset, by default and with all, and of the tools both have;
// - per-call latency of a few tools, median of BENCH_GEN_CALLS (default 200) calls run in
//   turns after a warm-up (the old build speaks generation 1, the new one 2; this build with
//   WEBDATA_API_GENERATION=1 beside them shows what the generation itself costs).
import { fileURLToPath } from "node:url";
import { encode } from "gpt-tokenizer/encoding/o200k_base";
import { baselineCli } from "./baseline.mjs";
import { startSandboxProcess } from "./sandbox-process.mjs";
import { connect, spawnToList } from "./server.mjs";
import { median, printTable, round } from "./table.mjs";

/** d03d74f: main just before bea25df, "API generations skeleton" (WEBDATA_API_GENERATION). */
const BEFORE_GENERATION_2 = "d03d74f";
const NEW_CLI = fileURLToPath(new URL("../dist/cli.cjs", import.meta.url));
const KEY = "wdk_BENCHGENERATIONSQZX";
const SPAWNS = Number(process.env.BENCH_GEN_SPAWNS ?? 10);
const CALLS = Number(process.env.BENCH_GEN_CALLS ?? 200);
const WARM_UP = 30;
const TOOLSETS = ["search", "extract", "templates", "agents", "crawl", "health", "tasks", "jobs"];
const NEW_ONLY_TOOLSETS = ["research", "media", "manage"];
const tokens = (value) => encode(JSON.stringify(value)).length;
const ratio = (now, before) => (before > 0 ? round(now / before) : Number.NaN);

const serverEnv = (sandbox) => ({
  WEBDATA_BASE_URL: sandbox.url,
  WEBDATA_API_KEY: KEY,
  WEBDATA_MAX_RPS: "1000000",
});

async function startup(sandbox, builds) {
  const times = builds.map(() => []);
  for (let i = 0; i < SPAWNS; i++) {
    for (const [b, build] of builds.entries()) {
      times[b].push(await spawnToList(process.execPath, [build.cli], serverEnv(sandbox)));
    }
  }
  const [now, before] = times.map(median);
  return {
    metric: `spawn → initialize + tools/list (stdio, default toolsets), median of ${SPAWNS}, interleaved`,
    value: now,
    unit: "ms",
    compare: `before generation 2 (${builds[1].label}): ${round(before)} ms; new/old ${ratio(now, before)}`,
    target: "new/old ≤ 1.10",
    ok: now <= before * 1.1,
  };
}

/** The tools/list of one build under `env`, or undefined when that build refuses the setting. */
async function listOf(sandbox, cli, env) {
  try {
    const { client, close } = await connect(sandbox, env, cli);
    try {
      return (await client.listTools()).tools;
    } finally {
      await close();
    }
  } catch {
    return undefined;
  }
}

function tokenRow(label, now, before) {
  const all = tokens({ tools: now });
  if (!before) {
    return {
      metric: `tools/list tokens, ${label}: ${now.length} tools`,
      value: all,
      unit: "tokens",
      compare: "before: no such toolset (new since)",
      target: "≤ 4,000 (the default list's budget)",
      ok: all <= 4000,
    };
  }
  const names = new Set(before.map((t) => t.name));
  const shared = now.filter((t) => names.has(t.name));
  const sharedBefore = before.filter((t) => shared.some((s) => s.name === t.name));
  const allBefore = tokens({ tools: before });
  const [same, sameBefore] = [tokens({ tools: shared }), tokens({ tools: sharedBefore })];
  return {
    metric: `tools/list tokens, ${label}: ${now.length} tools (the ${shared.length} both builds have: ${same})`,
    value: all,
    unit: "tokens",
    compare: `before: ${allBefore} for ${before.length} tools, new/old ${ratio(all, allBefore)}; the shared tools ${sameBefore}, new/old ${ratio(same, sameBefore)}`,
    target: "the shared tools ≤ before",
    ok: same <= sameBefore,
  };
}

async function listTokens(sandbox, builds) {
  const cases = [
    ["default toolsets", {}],
    ["all", { WEBDATA_TOOLSETS: "all", WEBDATA_LEGACY_AUTH: "demo:demo" }],
    ...TOOLSETS.map((t) => [`toolset ${t}`, { WEBDATA_TOOLSETS: t }]),
    ...NEW_ONLY_TOOLSETS.map((t) => [`toolset ${t}`, { WEBDATA_TOOLSETS: t }]),
  ];
  const rows = [];
  for (const [label, env] of cases) {
    const [now, before] = [
      await listOf(sandbox, builds[0].cli, env),
      await listOf(sandbox, builds[1].cli, env),
    ];
    if (!now) throw new Error(`this build refused ${JSON.stringify(env)}`);
    rows.push(tokenRow(label, now, before));
  }
  return rows;
}

/** Median call time of each client on `name`, calls taking turns between them after a warm-up. */
async function pairedCalls(clients, name, args) {
  const call = async (client) => {
    const result = await client.callTool({ name, arguments: args });
    if (result.isError) throw new Error(`${name}: ${result.content?.[0]?.text}`);
  };
  for (let i = 0; i < WARM_UP; i++) for (const c of clients) await call(c);
  const times = clients.map(() => []);
  for (let i = 0; i < CALLS; i++) {
    // Each client goes first in turn, so the machine's slow spells weigh on all alike.
    const order = clients.map((_, k) => (k + i) % clients.length);
    for (const k of order) {
      const t0 = performance.now();
      await call(clients[k]);
      times[k].push(performance.now() - t0);
    }
  }
  return times.map(median);
}

async function callLatency(sandbox, builds) {
  const env = { ...serverEnv(sandbox), WEBDATA_TOOLSETS: "all" };
  // This build on generation 1 too: what the generation costs apart from everything else since.
  const sessions = [
    await connect(sandbox, env, builds[0].cli),
    await connect(sandbox, env, builds[1].cli),
    await connect(sandbox, { ...env, WEBDATA_API_GENERATION: "1" }, builds[0].cli),
  ];
  const cases = [
    ["serp_search", { search_engine: "engine1_search", query: "hiking boots", num_results: 10 }],
    ["extract_page", { url: `${sandbox.siteUrl}/` }],
    ["map_site", { url: `${sandbox.siteUrl}/`, limit: 20 }],
    ["check_domain_health", { domains: ["example.com"], include_driver: true }],
    ["list_agents", { query: "product" }],
  ];
  const rows = [];
  try {
    for (const [name, args] of cases) {
      try {
        const [now, before, onOne] = await pairedCalls(
          sessions.map((s) => s.client),
          name,
          args,
        );
        rows.push({
          metric: `${name} call against the sandbox, median of ${CALLS} (taking turns)`,
          value: now,
          unit: "ms",
          compare: `before generation 2: ${round(before)} ms; new/old ${ratio(now, before)}; this build on generation 1: ${round(onOne)} ms (new/that ${ratio(now, onOne)})`,
          target: "new/old ≤ 1.10",
          ok: now <= before * 1.1,
        });
      } catch (error) {
        rows.push({
          metric: `${name} call`,
          value: String(error.message),
          compare: "",
          target: "runs",
          ok: false,
        });
      }
    }
  } finally {
    for (const s of sessions) await s.close();
  }
  return rows;
}

export async function run() {
  const before = baselineCli(BEFORE_GENERATION_2);
  const builds = [{ cli: NEW_CLI, label: "this build" }, before];
  const sandbox = await startSandboxProcess({ key: KEY });
  try {
    return [
      await startup(sandbox, builds),
      ...(await listTokens(sandbox, builds)),
      ...(await callLatency(sandbox, builds)),
    ];
  } finally {
    await sandbox.close();
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  printTable((await run()).map((r) => ({ group: "generations", ...r })));
}
