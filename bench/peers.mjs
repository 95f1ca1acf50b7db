// `node bench/run.mjs peers` (`npm run bench -- peers`): issue 33's table in one run, on one
// machine — this server beside the peer MCP servers' published packages and the floor:
// - spawn → `initialize` + `tools/list` answered (the SDK client's request, its answer parsed; for
//   this build also to `listTools()` returning, which adds the client's compile of a validator for
//   each output schema), median of BENCH_PEERS_SPAWNS (9),
//   every server once per round (interleaved, so the host's load hits all alike), with each server's
//   CPU time until then (Linux; steadier than wall time on a loaded host); the floor is
//   node itself answering both with canned JSON (bench/floor.mjs; the same file run as CommonJS is
//   printed too, without the ES module loader that a .mjs starts), beside it the SDK floor (the SDK's
//   bare `Server` on its stdio transport, bench/sdk-floor.mjs) bundled as one ES module, and again
//   loaded the way dist/cli.cjs loads the stdio server (CommonJS, V8 code cache, zod jitless); every
//   server spawned once unmeasured first (its code cache written, the agent catalog fetched), ours
//   with a cache dir of the bench's own; with BENCH_BASELINE (a commit)
//   or BENCH_BASELINE_CLI (a built dist/cli.cjs) also an older build of ours (bench/baseline.mjs);
// - per-call overhead: `extract_page` over the raw API request it makes (the sandbox in a process
//   of its own) beside Firecrawl's `firecrawl_scrape` over the raw `POST /v2/scrape` (a stub in a
//   process of its own, bench/firecrawl-stub.mjs, serving the same page), both through the SDK
//   client; median of BENCH_PEERS_CALLS (600) paired differences after 300 calls, the cases in an
//   order rotated by one place each round; then again after BENCH_PEERS_STEADY (4,000) more calls,
//   once V8 has optimized every server's call path (0 skips that phase).
//   The baseline build and the call floor (bench/call-floor.mjs: the SDK's bare `Server` with one
//   `tools/call` handler making the same request) take their turns in the same loop; each server's
//   CPU time per call is printed beside its overhead.
// BENCH_PEERS_ONLY=startup: the start-up rows of this build, the floors (and the baseline) only — no
// peer installed or spawned, no per-call part (a cheap run on a shared machine); =percall: only the
// per-call rows.
// The peers are installed on first use (npm, --ignore-scripts) into a folder under the OS temp
// folder (BENCH_PEERS_DIR overrides), never into the project; nothing of theirs runs but their own
// stdio entry point, with a dummy key. Bright Data's server asks api.brightdata.com for its zones
// before it answers; that request is part of its start-up as a user meets it.
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { getDefaultEnvironment, StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { ListToolsResultSchema } from "@modelcontextprotocol/sdk/types.js";
import { build } from "esbuild";
import { request } from "undici";
import { WebDataClient } from "../dist/api/client.js";
import { startPath } from "../scripts/start-path-plugin.mjs";
import { baselineCli } from "./baseline.mjs";
import { startFirecrawlStub } from "./firecrawl-stub.mjs";
import { rssMb } from "./memory.mjs";
import { startSandboxProcess } from "./sandbox-process.mjs";
import { median, printTable, round } from "./table.mjs";

const CLI = fileURLToPath(new URL("../dist/cli.cjs", import.meta.url));
const FLOOR = fileURLToPath(new URL("./floor.mjs", import.meta.url));
const SDK_FLOOR = fileURLToPath(new URL("./sdk-floor.mjs", import.meta.url));
const CALL_FLOOR = fileURLToPath(new URL("./call-floor.mjs", import.meta.url));
const ZOD_JITLESS = fileURLToPath(new URL("../src/server/zod-jitless.ts", import.meta.url));
const CODE_CACHE = fileURLToPath(new URL("../dist/cli/code-cache.js", import.meta.url));
const KEY = "wdk_BENCHQZXJVKWPRTMNHG";
const FIRECRAWL_KEY = "fc-bench0000000000000000";

export const PEERS = [
  {
    name: "exa-mcp-server",
    version: "3.4.1",
    entry: "exa-mcp-server/dist/stdio.cjs",
    env: { EXA_API_KEY: "bench" },
  },
  {
    name: "tavily-mcp",
    version: "0.2.22",
    entry: "tavily-mcp/build/index.js",
    env: { TAVILY_API_KEY: "bench" },
  },
  {
    name: "firecrawl-mcp",
    version: "3.26.0",
    entry: "firecrawl-mcp/dist/index.js",
    env: { FIRECRAWL_API_KEY: FIRECRAWL_KEY },
  },
  {
    name: "@brightdata/mcp",
    version: "2.11.3",
    entry: "@brightdata/mcp/server.js",
    env: { API_TOKEN: "bench" },
  },
];

function peersDir(env = process.env) {
  if (env.BENCH_PEERS_DIR) return env.BENCH_PEERS_DIR;
  const tag = PEERS.map((p) => `${p.name}@${p.version}`)
    .join("+")
    .replace(/[^A-Za-z0-9.@+-]/g, "_");
  return join(env.TMPDIR || tmpdir(), `webdata-bench-peers-${tag.length > 80 ? tag.slice(0, 80) : tag}`);
}

/** The peers that are (or could now be) installed, each with the path of its entry point. */
export function installedPeers() {
  const dir = peersDir();
  const missing = PEERS.filter((p) => !existsSync(join(dir, "node_modules", p.entry)));
  if (missing.length > 0) {
    mkdirSync(dir, { recursive: true });
    if (!existsSync(join(dir, "package.json")))
      writeFileSync(join(dir, "package.json"), '{"name":"bench-peers","private":true}\n');
    process.stderr.write(`bench: installing peers ${missing.map((p) => p.name).join(", ")} into ${dir}\n`);
    spawnSync(
      "npm",
      [
        "install",
        "--no-audit",
        "--no-fund",
        "--ignore-scripts",
        ...missing.map((p) => `${p.name}@${p.version}`),
      ],
      { cwd: dir, stdio: ["ignore", "ignore", "inherit"] },
    );
  }
  return PEERS.filter((p) => existsSync(join(dir, "node_modules", p.entry))).map((p) => ({
    ...p,
    path: join(dir, "node_modules", p.entry),
  }));
}

/** An SDK client over stdio to `node file` with `env`, and the server's pid. */
async function spawnClient(file, env) {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [file],
    env: { ...getDefaultEnvironment(), ...env },
    stderr: "ignore",
  });
  const client = new Client({ name: "bench", version: "0" });
  await client.connect(transport);
  return { client, pid: transport.pid };
}

/**
 * CPU time (ms) the process `pid` has used so far, all its threads (Linux: each /proc/PID/task/TID/schedstat,
 * nanoseconds on the CPU); NaN elsewhere. Less sensitive to the host's load than wall time.
 */
function cpuMs(pid) {
  try {
    let ns = 0;
    for (const task of readdirSync(`/proc/${pid}/task`)) {
      ns += Number(readFileSync(`/proc/${pid}/task/${task}/schedstat`, "utf8").split(" ")[0]);
    }
    return ns / 1e6;
  } catch {
    return Number.NaN;
  }
}

/**
 * Spawn → initialize + tools/list answered, one run: wall ms, and the server's CPU ms by then. The
 * answer is timed once the client has parsed it (the SDK's ListToolsResultSchema); with `viaListTools`,
 * once the SDK client's `listTools()` returns, which then also compiles an Ajv validator for each
 * tool's output schema in the client (5-10 ms for our 13 tools, none for a server without output
 * schemas): the client's work, printed beside the answer for this build.
 */
async function spawnToList(file, env, viaListTools = false) {
  const t0 = performance.now();
  const { client, pid } = await spawnClient(file, env);
  if (viaListTools) await client.listTools();
  else await client.request({ method: "tools/list" }, ListToolsResultSchema);
  const ms = performance.now() - t0;
  const cpu = pid ? cpuMs(pid) : Number.NaN;
  await client.close();
  return { ms, cpu };
}

/**
 * Spawn → initialize + tools/list → one `extract_page` answered, as an agent framework that spawns
 * its servers per run meets it: wall ms, the server's CPU ms and resident MB by then.
 */
async function spawnToFirstCall(file, env, url) {
  const t0 = performance.now();
  const { client, pid } = await spawnClient(file, env);
  await client.listTools();
  await client.callTool({ name: "extract_page", arguments: { url } });
  const ms = performance.now() - t0;
  const cpu = pid ? cpuMs(pid) : Number.NaN;
  const rss = pid ? rssMb(pid) : Number.NaN;
  await client.close();
  return { ms, cpu, rss };
}

/**
 * `probe(server)` for every server once per round, `rounds` times (interleaved, so the host's load
 * hits all alike); resolves to `(j, key)` → the median of server j's `key` over the probes that
 * answered.
 */
async function interleaved(servers, rounds, probe) {
  const runs = servers.map(() => []);
  for (let i = 0; i < rounds; i++) {
    for (const [j, s] of servers.entries()) runs[j].push(await probe(s).catch(() => ({})));
  }
  return (j, key) =>
    median(runs[j].map((r) => r[key]).filter((x) => typeof x === "number" && !Number.isNaN(x)));
}

/** Spawn → first call (`url`, a page of the sandbox's site) of this build and the baseline, interleaved, median of `rounds`. */
async function firstCall(servers, rounds, url) {
  const med = await interleaved(servers, rounds, (s) => spawnToFirstCall(s.file, s.env, url));
  return servers.map((s, j) => ({
    metric: `spawn → initialize + tools/list + extract_page answered, median of ${rounds}: ${s.name}`,
    value: med(j, "ms"),
    unit: "ms",
    compare: `its CPU by then ${round(med(j, "cpu"))} ms, resident ${round(med(j, "rss"))} MB${j > 0 ? ` (this build: ${round(med(0, "ms"))} ms, ${round(med(0, "cpu"))} ms CPU, ${round(med(0, "rss"))} MB)` : ""}`,
    target: "reference",
    ok: true,
  }));
}

/**
 * bench/sdk-floor.mjs bundled into one file under the OS temp folder as scripts/bundle.mjs bundled
 * the CLI before issue 33's code cache (one ES module, no cache); and `cached`: as dist/cli.cjs now
 * loads the stdio server — one CommonJS file with zod jitless first (src/server/zod-jitless.ts),
 * run by a small CommonJS file through src/cli/code-cache.ts with a code cache of its own.
 */
async function bundledSdkFloor({ cached = false } = {}) {
  const dir = mkdtempSync(join(tmpdir(), "webdata-bench-sdk-floor-"));
  if (!cached) {
    const outfile = join(dir, "sdk-floor.mjs");
    await bundleTo(SDK_FLOOR, outfile, {
      format: "esm",
      plugins: [startPath],
      banner: {
        js: 'import { createRequire as __createRequire } from "node:module"; const require = __createRequire(import.meta.url);',
      },
    });
    return outfile;
  }
  const entry = join(dir, "entry.mjs");
  writeFileSync(entry, `import ${JSON.stringify(ZOD_JITLESS)};\nimport ${JSON.stringify(SDK_FLOOR)};\n`);
  const cjs = join(dir, "sdk-floor.cjs");
  await bundleTo(entry, cjs, { format: "cjs", plugins: [startPath] });
  const runner = join(dir, "run.mjs");
  writeFileSync(
    runner,
    `import { loadCached } from ${JSON.stringify(CODE_CACHE)};\nprocess.once("exit", loadCached(${JSON.stringify(cjs)}, ${JSON.stringify(join(dir, "cache"))}).persist);\n`,
  );
  const run = join(dir, "run.cjs");
  await bundleTo(runner, run, { format: "cjs" });
  return run;
}

/** `entry` bundled for Node 20 into `outfile`, with `options` (format, plugins, banner). */
function bundleTo(entry, outfile, options) {
  return build({
    entryPoints: [entry],
    outfile,
    bundle: true,
    platform: "node",
    target: "node20",
    minifySyntax: true,
    logLevel: "warning",
    ...options,
  });
}

/** bench/floor.mjs (no import, no require) copied to a .cjs file: Node runs it as CommonJS. */
function commonJsFloor() {
  const file = join(mkdtempSync(join(tmpdir(), "webdata-bench-floor-")), "floor.cjs");
  writeFileSync(file, readFileSync(FLOOR));
  return file;
}

async function startup(sandbox, peers, baseline) {
  const rounds = Number(process.env.BENCH_PEERS_SPAWNS ?? 9);
  const ourEnv = {
    WEBDATA_BASE_URL: sandbox.url,
    WEBDATA_API_KEY: KEY,
    WEBDATA_CACHE_DIR: mkdtempSync(join(tmpdir(), "webdata-bench-cache-")),
  };
  const servers = [
    { name: "floor (node answering with canned JSON)", file: FLOOR, env: {} },
    { name: "the same floor run as CommonJS (no ES module loader)", file: commonJsFloor(), env: {} },
    { name: "SDK floor (the SDK's bare Server on stdio, bundled)", file: await bundledSdkFloor(), env: {} },
    {
      name: "SDK floor loaded as ours is (CommonJS, V8 code cache, zod jitless)",
      file: await bundledSdkFloor({ cached: true }),
      env: {},
    },
    { name: "web-data-mcp (this build)", file: CLI, env: ourEnv },
    ...(baseline ? [{ name: `web-data-mcp (${baseline.label})`, file: baseline.cli, env: ourEnv }] : []),
    ...peers.map((p) => ({ name: `${p.name} ${p.version}`, file: p.path, env: p.env })),
    {
      name: "web-data-mcp (this build), to the SDK client's listTools() returning (+ its output-schema validators)",
      file: CLI,
      env: ourEnv,
      viaListTools: true,
    },
  ];
  const COMMONJS_FLOOR = 1;
  const OURS = 4;
  // Warm: each code cache written, the agent catalog cached (as on a user's second start).
  for (const s of servers) await spawnToList(s.file, s.env).catch(() => {});
  const med = await interleaved(servers, rounds, (s) => spawnToList(s.file, s.env, s.viaListTools));
  const floor = med(0, "ms");
  const floorCpu = med(0, "cpu");
  const firstCallRows = await firstCall(
    servers.slice(OURS, baseline ? OURS + 2 : OURS + 1),
    rounds,
    `${sandbox.siteUrl}/`,
  );
  const startupRows = servers.map((s, j) => {
    const ms = med(j, "ms");
    const cpu = med(j, "cpu");
    const cpuText = Number.isNaN(cpu)
      ? ""
      : `; its CPU by then ${round(cpu)} ms, ${round(cpu / floorCpu)} × the floor's`;
    return {
      metric: `spawn → initialize + tools/list, median of ${rounds}: ${s.name}`,
      value: ms,
      unit: "ms",
      compare:
        j === 0
          ? `the floor${cpuText}`
          : `${round(ms / floor)} × the floor (${round(floor)} ms)${j === OURS ? `, ${round(ms / med(COMMONJS_FLOOR, "ms"))} × the CommonJS floor` : ""}${cpuText}`,
      target: j === OURS ? "≤ 1.5 × the floor" : "reference",
      ok: j === OURS ? ms <= 1.5 * floor : true,
    };
  });
  return [...startupRows, ...firstCallRows];
}

/**
 * Median times of each call and of each (mcp − raw) pair. Each round runs every case's pair once,
 * the cases in an order rotated by one each round (each case takes every place equally, and none
 * runs twice in a row across rounds: a server that has just answered answers its next call faster,
 * which favoured whichever case the order put at both ends), each pair's two calls in turn first.
 * With a case's `pid`, also that server's CPU time per call over the measured rounds (Linux: it is
 * idle between its own calls, so this is what a call costs it; steadier than wall time on a loaded host).
 */
async function pairedOverheads(cases, calls, warmUp) {
  const times = cases.map(() => ({ mcp: [], raw: [] }));
  const cpuAtStart = [];
  const timed = async (fn) => {
    const t0 = performance.now();
    await fn();
    return performance.now() - t0;
  };
  for (let i = 0; i < warmUp + calls; i++) {
    if (i === warmUp) for (const c of cases) cpuAtStart.push(c.pid ? cpuMs(c.pid) : Number.NaN);
    const mcpFirst = Math.floor(i / cases.length) % 2 === 0;
    for (let k = 0; k < cases.length; k++) {
      const j = (i + k) % cases.length;
      const c = cases[j];
      const [first, second] = mcpFirst ? [c.mcp, c.raw] : [c.raw, c.mcp];
      const a = await timed(first);
      const b = await timed(second);
      if (i < warmUp) continue;
      times[j].mcp.push(mcpFirst ? a : b);
      times[j].raw.push(mcpFirst ? b : a);
    }
  }
  return cases.map((c, j) => {
    const { mcp, raw } = times[j];
    const cpuPerCall = c.pid ? ((cpuMs(c.pid) - cpuAtStart[j]) / calls) * 1000 : Number.NaN;
    return {
      ...c,
      mcpMs: median(mcp),
      rawMs: median(raw),
      overhead: median(mcp.map((t, i) => t - raw[i])),
      cpuPerCall,
    };
  });
}

/**
 * `extract_page` through this build (and the baseline build, and the call floor: the SDK's bare
 * `Server` with one `tools/call` handler making the same request, bench/call-floor.mjs) and
 * `firecrawl_scrape`, each over its raw request, all in one interleaved loop.
 */
async function overhead(peers, baseline) {
  const firecrawl = peers.find((p) => p.name === "firecrawl-mcp");
  const sandbox = await startSandboxProcess({ key: KEY });
  const page = `${sandbox.siteUrl}/`;
  // The raw request through the project's own API client (≈ 0.01 ms over raw undici: the client group).
  const api = new WebDataClient({ baseUrl: sandbox.url, apiKey: KEY, maxRps: 1_000_000 });
  const rawOurs = () => api.extract({ url: page, render: false, formats: ["markdown"] });
  const markdown = String((await rawOurs()).data?.markdown ?? "");
  const stub = await startFirecrawlStub(markdown);
  const ourEnv = { WEBDATA_BASE_URL: sandbox.url, WEBDATA_API_KEY: KEY, WEBDATA_MAX_RPS: "1000000" };
  const ours = await spawnClient(CLI, ourEnv);
  const before = baseline ? await spawnClient(baseline.cli, ourEnv) : undefined;
  const floor = await spawnClient(CALL_FLOOR, ourEnv);
  const theirs = firecrawl
    ? await spawnClient(firecrawl.path, { ...firecrawl.env, FIRECRAWL_API_URL: stub.url })
    : undefined;
  const checked = (client, name, args) => async () => {
    const r = await client.callTool({ name, arguments: args });
    if (r.isError) throw new Error(`${name}: ${r.content?.[0]?.text}`);
  };
  const extract = (s) => checked(s.client, "extract_page", { url: page });
  const cases = [
    { name: "web-data-mcp extract_page", mcp: extract(ours), raw: rawOurs, pid: ours.pid, ours: true },
    ...(before
      ? [
          {
            name: `web-data-mcp (${baseline.label}) extract_page`,
            mcp: extract(before),
            raw: rawOurs,
            pid: before.pid,
          },
        ]
      : []),
    {
      name: "call floor (the SDK's bare Server, the same request and page shaping) extract_page",
      mcp: extract(floor),
      raw: rawOurs,
      pid: floor.pid,
    },
  ];
  if (theirs) {
    cases.push({
      name: `firecrawl-mcp ${firecrawl.version} firecrawl_scrape`,
      mcp: checked(theirs.client, "firecrawl_scrape", { url: page }),
      raw: async () => {
        const res = await request(`${stub.url}/v2/scrape`, {
          method: "POST",
          headers: { authorization: `Bearer ${FIRECRAWL_KEY}`, "content-type": "application/json" },
          body: JSON.stringify({ url: page, formats: ["markdown"] }),
        });
        return res.body.json();
      },
      pid: theirs.pid,
      peer: true,
    });
  }
  try {
    const calls = Number(process.env.BENCH_PEERS_CALLS ?? 600);
    const warmUp = Math.min(300, calls);
    const early = await pairedOverheads(cases, calls, warmUp);
    // The same servers, on: V8 is still optimizing every server's call path well past the first
    // few hundred calls (docs/benchmarks.md, "per call once the JIT is warm").
    const steadyAfter = Number(process.env.BENCH_PEERS_STEADY ?? 4_000);
    const steady = steadyAfter > 0 ? await pairedOverheads(cases, calls, steadyAfter) : [];
    return [
      ...overheadRows(early, calls, `after ${warmUp} calls`),
      ...overheadRows(steady, calls, `after ${warmUp + calls + steadyAfter} calls (the JIT warm)`),
    ];
  } finally {
    for (const s of [ours, before, floor, theirs]) await s?.client.close();
    await stub.close();
    await api.close();
    await sandbox.close();
  }
}

/** One phase's rows: each case's median overhead, against Firecrawl's in the same phase. */
function overheadRows(results, calls, phase) {
  const peer = results.find((r) => r.peer);
  const mine = results[0];
  return results.map((r) => {
    const cpu = Number.isNaN(r.cpuPerCall) ? "" : `; its CPU per call ${round(r.cpuPerCall)} µs`;
    const vsPeer = peer && !r.peer ? `; ${round(r.overhead / peer.overhead)} × firecrawl's` : "";
    const vsMine = r !== mine && !r.peer ? `; this build: +${round(mine.overhead)} ms` : "";
    return {
      metric: `per-call overhead over the raw request, median of ${calls} paired differences ${phase}: ${r.name}`,
      value: r.overhead,
      unit: "ms",
      compare: `MCP ${round(r.mcpMs)} ms vs raw ${round(r.rawMs)} ms${vsPeer}${cpu}${vsMine}`,
      target: r.ours ? "≤ 1 ms and ≤ 0.4 × firecrawl's" : "reference",
      ok: r.ours ? r.overhead <= 1 && (!peer || r.overhead <= 0.4 * peer.overhead) : true,
    };
  });
}

export async function run() {
  const only = process.env.BENCH_PEERS_ONLY;
  const peers = only === "startup" ? [] : installedPeers();
  const baseline = process.env.BENCH_BASELINE_CLI
    ? baselineCli("HEAD")
    : process.env.BENCH_BASELINE
      ? baselineCli(process.env.BENCH_BASELINE)
      : undefined;
  let rows = [];
  if (only !== "percall") {
    const sandbox = await startSandboxProcess({ key: KEY });
    try {
      rows = await startup(sandbox, peers, baseline);
    } finally {
      await sandbox.close();
    }
  }
  return only === "startup" ? rows : [...rows, ...(await overhead(peers, baseline))];
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  printTable((await run()).map((r) => ({ group: "peers", ...r })));
}
