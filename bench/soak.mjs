// Soak and big-result benchmarks (run `npm run build` first): the built stdio server against the
// in-process sandbox, driven by the SDK client.
// - 10,000 tool calls of a mixed workload over ONE stdio session (16 in flight): throughput,
//   p50/p99 latency, the server's RSS (VmRSS of the child) after warm-up, every tenth and at the
//   end, and its heap snapshot size (after a full GC; RSS alone moves with GC timing) before and
//   after, beside the same mix sent straight to the API with WebDataClient (what MCP costs);
// - one 20 MB page through extract_page: the server's peak RSS during the call (sampled every
//   10 ms) over its RSS before, and the result's size against max_chars.
// The client's limiter and the sandbox's rate limit are both lifted (WEBDATA_MAX_RPS=1000000,
// rateLimit 1000000): this measures the server, not the documented 83 rps.
import { mkdtempSync, readdirSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { getDefaultEnvironment, StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { WebDataClient } from "../dist/api/client.js";
import { startSandbox } from "../dist/sandbox/index.js";
import { rssMb } from "./memory.mjs";
import { median, percentile, printTable, round } from "./table.mjs";

const CLI = fileURLToPath(new URL("../dist/cli.cjs", import.meta.url));
const KEY = "wdk_SOAKQZXJVKWPRTMNHG";
const CALLS = Number(process.env.SOAK_CALLS ?? 10_000);
const WARMUP = Math.min(1_000, Math.floor(CALLS / 10));
/** RSS is read after each tenth of the soak. */
const CHECKPOINTS = 10;
const DIRECT_CALLS = Math.min(2_000, CALLS);
const IN_FLIGHT = 16;
const LARGE_MB = 20;
const LARGE_MAX_CHARS = 20_000;
/**
 * RSS moves by tens of MB with GC timing on a busy machine (heap snapshots of the same run stay
 * flat), so "no growth beyond noise" means: the end is not above the first half's highest
 * reading by more than this. A leak keeps climbing through the second half.
 */
const RSS_NOISE_MB = 15;
/** Peak RSS over baseline allowed for a 20 MB page (the body, its parse and one Markdown copy). */
const LARGE_PEAK_MB = 200;

/** Heap snapshot growth over the soak that counts as noise (snapshots follow a full GC). */
const HEAP_NOISE_MB = 3;

async function connect(sandbox, { cwd, nodeArgs = [] } = {}) {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [...nodeArgs, CLI],
    cwd,
    env: {
      ...getDefaultEnvironment(),
      WEBDATA_BASE_URL: sandbox.url,
      WEBDATA_API_KEY: KEY,
      WEBDATA_MAX_RPS: "1000000",
      WEBDATA_WAIT_MS: "30000",
    },
    stderr: "ignore",
  });
  const client = new Client({ name: "soak", version: "0" });
  await client.connect(transport);
  return { client, pid: transport.pid, close: () => client.close() };
}

/** The mix: i-th call's tool and arguments (cheap reads and submissions, some polled). */
function mix(sandbox, taskId) {
  const pages = ["/", "/about", "/shop", "/blog", "/docs"].map((p) => `${sandbox.siteUrl}${p}`);
  const calls = [
    ["serp_search", { search_engine: "engine1_search", query: "hiking boots" }],
    ["extract_page", { url: pages[1] }],
    ["extract_page", { url: pages[2], max_chars: 2_000 }],
    ["get_task", { task_id: taskId }],
    ["check_domain_health", { domains: ["example.com", "shop.example.com"] }],
    ["list_agents", { query: "news" }],
    ["job_runs", { job_id: "job_daily_prices", limit: 5 }],
    ["serp_search", { search_engine: "engine1_news", query: "trail running" }],
    ["extract_page", { url: pages[3], render: true }],
    ["extract_page", { url: pages[4] }],
  ];
  return (i) => calls[i % calls.length];
}

/** The same requests sent straight to the API (no MCP, no server process). */
function directMix(client, sandbox, taskId) {
  const pages = ["/about", "/shop", "/docs"].map((p) => `${sandbox.siteUrl}${p}`);
  const calls = [
    () => client.serp({ search_engine: "engine1_search", query: "hiking boots" }),
    () => client.extract({ url: pages[0], formats: ["markdown"] }),
    () => client.extract({ url: pages[1], formats: ["markdown"] }),
    () => client.getTask(taskId),
    () => client.checkDomainHealth({ domains: ["example.com", "shop.example.com"] }),
    () => client.jobRuns("job_daily_prices", { limit: 5 }),
    () => client.extract({ url: pages[2], formats: ["markdown"] }),
  ];
  return (i) => calls[i % calls.length]();
}

/** Runs `count` calls of `one(i)`, IN_FLIGHT at a time; returns per-call ms and wall time. */
async function drive(count, one, onDone = () => {}) {
  const latencies = new Array(count);
  let next = 0;
  let done = 0;
  let failures = 0;
  const t0 = performance.now();
  const worker = async () => {
    while (next < count) {
      const i = next++;
      const s = performance.now();
      const ok = await one(i).then(
        (r) => r?.isError !== true,
        () => false,
      );
      latencies[i] = performance.now() - s;
      if (!ok) failures += 1;
      onDone(++done);
    }
  };
  await Promise.all(Array.from({ length: IN_FLIGHT }, worker));
  return { latencies, wallMs: performance.now() - t0, failures };
}

/** Asks the child for a heap snapshot (taken after a full GC); resolves to its size in MB. */
async function heapSnapshotMb(pid, dir) {
  const before = new Set(readdirSync(dir));
  process.kill(pid, "SIGUSR2");
  for (;;) {
    await new Promise((r) => setTimeout(r, 250));
    const file = readdirSync(dir).find((f) => !before.has(f) && f.endsWith(".heapsnapshot"));
    if (!file) continue;
    // Written once the size stops changing.
    const size = statSync(join(dir, file)).size;
    await new Promise((r) => setTimeout(r, 500));
    if (statSync(join(dir, file)).size === size && size > 0) {
      rmSync(join(dir, file));
      return size / 1024 / 1024;
    }
  }
}

async function soak(sandbox, taskId) {
  const snapshots = mkdtempSync(join(tmpdir(), "webdata-soak-"));
  const { client, pid, close } = await connect(sandbox, {
    cwd: snapshots,
    nodeArgs: ["--heapsnapshot-signal=SIGUSR2"],
  });
  try {
    const pick = mix(sandbox, taskId);
    const call = (i) => {
      const [name, args] = pick(i);
      return client.callTool({ name, arguments: args }, undefined, { timeout: 60_000 });
    };
    const rssSpawned = rssMb(pid);
    await drive(WARMUP, call);
    const heapStart = await heapSnapshotMb(pid, snapshots);
    const rssStart = rssMb(pid);
    const readings = [];
    const { latencies, wallMs, failures } = await drive(CALLS, call, (done) => {
      if (done % Math.ceil(CALLS / CHECKPOINTS) === 0) readings.push(rssMb(pid));
    });
    const rssEnd = rssMb(pid);
    const heapEnd = await heapSnapshotMb(pid, snapshots);
    const firstHalfPeak = Math.max(rssStart, ...readings.slice(0, Math.floor(readings.length / 2)));
    await client.ping();

    const direct = new WebDataClient({ baseUrl: sandbox.url, apiKey: KEY, maxRps: 1_000_000 });
    const pickDirect = directMix(direct, sandbox, taskId);
    const d = await drive(DIRECT_CALLS, pickDirect);
    await direct.close();

    const rps = CALLS / (wallMs / 1000);
    const directRps = DIRECT_CALLS / (d.wallMs / 1000);
    const overPeak = rssEnd - firstHalfPeak;
    const note = "WEBDATA_MAX_RPS and sandbox rateLimit lifted to 1e6";
    return [
      {
        metric: `soak: ${CALLS} mixed tool calls, one stdio session, ${IN_FLIGHT} in flight (${note})`,
        value: rps,
        unit: "calls/s",
        compare: `same mix straight to the API (WebDataClient, no MCP): ${round(directRps, 0)} req/s`,
        target: "≥ 83 calls/s (the API's documented limit) with 0 failures",
        ok: rps >= 83 && failures === 0,
      },
      {
        metric: "soak: failed calls",
        value: failures,
        unit: "calls",
        compare: `direct client: ${d.failures}`,
        target: "0",
        ok: failures === 0,
      },
      {
        metric: "soak: latency p50 / p99",
        value: `${round(median(latencies), 1)} / ${round(percentile(latencies, 99), 1)}`,
        unit: "ms",
        compare: `direct client (no MCP, no polling): ${round(median(d.latencies), 1)} / ${round(percentile(d.latencies, 99), 1)} ms`,
        target: "p50 ≤ direct + 25 ms; p99 ≤ 1,000 ms (1 call in 10 polls a rendered page)",
        ok: median(latencies) <= median(d.latencies) + 25 && percentile(latencies, 99) <= 1000,
      },
      {
        metric: `soak: server RSS after ${WARMUP}-call warm-up → after ${CALLS} calls`,
        value: `${round(rssStart, 1)} → ${round(rssEnd, 1)}`,
        unit: "MB",
        compare: `just spawned ${round(rssSpawned, 1)} MB; readings ${readings.map((r) => round(r, 0)).join(", ")}`,
        target: `end ≤ first-half peak + ${RSS_NOISE_MB} MB (no upward trend)`,
        ok: overPeak <= RSS_NOISE_MB,
      },
      {
        metric: `soak: server heap snapshot (after a full GC) after warm-up → after ${CALLS} calls`,
        value: `${round(heapStart, 1)} → ${round(heapEnd, 1)}`,
        unit: "MB",
        compare: `growth ${round(heapEnd - heapStart, 2)} MB (${round(((heapEnd - heapStart) * 1024 * 1024) / CALLS, 0)} B per call)`,
        target: `growth ≤ ${HEAP_NOISE_MB} MB`,
        ok: heapEnd - heapStart <= HEAP_NOISE_MB,
      },
    ];
  } finally {
    await close();
    rmSync(snapshots, { recursive: true, force: true });
  }
}

async function largePage(sandbox) {
  const { client, pid, close } = await connect(sandbox);
  try {
    // Warm the path with a small page so the baseline holds the loaded code.
    await client.callTool({ name: "extract_page", arguments: { url: `${sandbox.siteUrl}/large?mb=1` } });
    const before = rssMb(pid);
    let peak = before;
    const sampler = setInterval(() => {
      peak = Math.max(peak, rssMb(pid));
    }, 10);
    const t0 = performance.now();
    const r = await client.callTool(
      {
        name: "extract_page",
        arguments: { url: `${sandbox.siteUrl}/large?mb=${LARGE_MB}`, max_chars: LARGE_MAX_CHARS },
      },
      undefined,
      { timeout: 120_000 },
    );
    const ms = performance.now() - t0;
    clearInterval(sampler);
    peak = Math.max(peak, rssMb(pid));
    const text = r.content
      .filter((c) => c.type === "text")
      .map((c) => c.text)
      .join("\n");
    const after = rssMb(pid);
    return [
      {
        metric: `${LARGE_MB} MB page via extract_page: server peak RSS over baseline (sampled every 10 ms)`,
        value: peak - before,
        unit: "MB",
        compare: `page ${LARGE_MB} MB; RSS before ${round(before, 1)} MB, peak ${round(peak, 1)}, after ${round(after, 1)}; call ${round(ms, 0)} ms`,
        target: `≤ ${LARGE_PEAK_MB} MB`,
        ok: !r.isError && peak - before <= LARGE_PEAK_MB,
      },
      {
        metric: `${LARGE_MB} MB page via extract_page: result text`,
        value: text.length,
        unit: "chars",
        compare: `max_chars ${LARGE_MAX_CHARS}`,
        target: `≤ max_chars + 600 (header and read-on line)`,
        ok: !r.isError && text.length <= LARGE_MAX_CHARS + 600,
      },
    ];
  } finally {
    await close();
  }
}

export async function run() {
  const sandbox = await startSandbox({
    key: KEY,
    rateLimit: 1_000_000,
    taskLatencyMs: 5,
    crawlPageMs: 5,
  });
  try {
    // Same key and origin share one limiter, which only ever lowers its rate: lift it here too.
    const seed = new WebDataClient({ baseUrl: sandbox.url, apiKey: KEY, maxRps: 1_000_000 });
    const { task_id: taskId } = await seed.extractAsync({ url: `${sandbox.siteUrl}/docs` });
    await seed.close();
    return [...(await soak(sandbox, taskId)), ...(await largePage(sandbox))];
  } finally {
    await sandbox.close();
  }
}

if (import.meta.url === `file://${process.argv[1]}`) printTable(await run());
