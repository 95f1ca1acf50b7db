// Telemetry benchmarks (run `npm run build` first): the built HTTP server `node dist/cli.cjs --http`
// with telemetry off and on, side by side. "On" is what an operator turns on: OTLP traces and
// metrics (OTEL_EXPORTER_OTLP_ENDPOINT, to a loopback sink that answers 200) plus Prometheus
// /metrics (WEBDATA_METRICS=1).
// - spawn → listening → initialize + tools/list over HTTP (median of SPAWNS, off/on alternating);
// - serp_search round trip through the server (paired medians over CALLS pairs, one server of each
//   kind, the sandbox in a process of its own).
// With BENCH_BASELINE_CLI=/path/to/an/older/dist/cli.cjs (a build from before telemetry existed)
// the "off" figures are also set beside that build's: telemetry off should change nothing.
import { spawn } from "node:child_process";
import { readdirSync } from "node:fs";
import { createServer } from "node:http";
import { fileURLToPath } from "node:url";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { startSandboxProcess } from "./sandbox-process.mjs";
import { median, printTable, round } from "./table.mjs";

const CLI = fileURLToPath(new URL("../dist/cli.cjs", import.meta.url));
const KEY = "wdk_BENCHTELEMETRYQZXJV";
const SPAWNS = 8;
const CALLS = 400;
const WARM_UP = 150;

/** An OTLP/HTTP collector stand-in: takes every export and answers 200 (counts the bytes). */
async function startSink() {
  let bytes = 0;
  const server = createServer((req, res) => {
    req.on("data", (c) => {
      bytes += c.length;
    });
    req.on("end", () => res.writeHead(200, { "content-type": "application/json" }).end("{}"));
  });
  await new Promise((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    url: `http://127.0.0.1:${server.address().port}`,
    bytes: () => bytes,
    close: () => new Promise((resolve) => server.close(resolve)),
  };
}

/** Spawns the HTTP server; resolves once it prints its URL. */
function startServer(sandbox, env, cli = CLI) {
  const child = spawn(process.execPath, [cli, "--http", "--port", "0"], {
    env: {
      PATH: process.env.PATH,
      HOME: process.env.HOME,
      WEBDATA_BASE_URL: sandbox.url,
      WEBDATA_API_KEY: KEY,
      WEBDATA_MAX_RPS: "1000000",
      ...env,
    },
    stdio: ["ignore", "ignore", "pipe"],
  });
  return new Promise((resolve, reject) => {
    let text = "";
    child.stderr.setEncoding("utf8");
    child.stderr.on("data", (chunk) => {
      text += chunk;
      const match = /at (http:\/\/\S+\/mcp)/.exec(text);
      if (match) {
        child.stderr.removeAllListeners("data");
        child.stderr.resume();
        resolve({
          url: match[1],
          stop: () =>
            new Promise((done) => {
              child.once("exit", done);
              child.kill("SIGTERM");
            }),
        });
      }
    });
    child.once("exit", (code) => reject(new Error(`server exited ${code}: ${text}`)));
  });
}

async function connect(url) {
  const client = new Client({ name: "bench", version: "0" });
  const transport = new StreamableHTTPClientTransport(new URL(url));
  await client.connect(transport);
  return {
    client,
    close: async () => {
      await transport.terminateSession().catch(() => {});
      await client.close();
    },
  };
}

/** Spawn-to-exit of `node` running `code` (ESM), median of SPAWNS. */
async function nodeRun(code) {
  const times = [];
  for (let i = 0; i < SPAWNS; i++) {
    const t0 = performance.now();
    await new Promise((resolve, reject) => {
      const child = spawn(process.execPath, ["--input-type=module", "-e", code], { stdio: "ignore" });
      child.once("error", reject);
      child.once("exit", resolve);
    });
    times.push(performance.now() - t0);
  }
  return median(times);
}

/** What switching telemetry on adds to start-up: loading its chunk, in a fresh process. */
async function chunkCost() {
  const dir = fileURLToPath(new URL("../dist/chunks/", import.meta.url));
  const chunk = readdirSync(dir).find((f) => /^otel-.*\.js$/.test(f));
  if (!chunk) throw new Error("no otel chunk in dist/chunks: npm run build");
  const bare = await nodeRun("");
  const loaded = await nodeRun(`await import(${JSON.stringify(`${dir}${chunk}`)});`);
  return {
    metric: `node + import of the OpenTelemetry chunk, median of ${SPAWNS}`,
    value: loaded - bare,
    unit: "ms",
    compare: `${round(loaded)} ms vs bare node ${round(bare)} ms; loaded only when telemetry is on`,
    target: "≤ 150 ms",
    ok: loaded - bare <= 150,
  };
}

async function startup(sandbox, onEnv, baseline) {
  const kinds = [
    ["off", {}, CLI],
    ["on", onEnv, CLI],
  ];
  if (baseline) kinds.push(["baseline", {}, baseline]);
  const times = Object.fromEntries(kinds.map(([k]) => [k, []]));
  for (let i = 0; i < SPAWNS; i++) {
    for (const [kind, env, cli] of i % 2 ? [...kinds].reverse() : kinds) {
      const t0 = performance.now();
      const server = await startServer(sandbox, env, cli);
      const { client, close } = await connect(server.url);
      await client.listTools();
      times[kind].push(performance.now() - t0);
      await close();
      await server.stop();
    }
  }
  const offMs = median(times.off);
  const onMs = median(times.on);
  const rows = [
    {
      metric: `--http spawn → initialize + tools/list, telemetry on, median of ${SPAWNS}`,
      value: onMs,
      unit: "ms",
      compare: `off: ${round(offMs)} ms (on adds ${round(onMs - offMs)} ms: the OpenTelemetry chunk)`,
      target: "on − off ≤ 150 ms",
      ok: onMs - offMs <= 150,
    },
  ];
  if (baseline) {
    const baseMs = median(times.baseline);
    rows.push({
      metric: `--http spawn → initialize + tools/list, telemetry off, median of ${SPAWNS}`,
      value: offMs,
      unit: "ms",
      compare: `build before telemetry: ${round(baseMs)} ms`,
      target: "within 10% of it",
      ok: offMs <= baseMs * 1.1,
    });
  }
  return rows;
}

/** Paired medians of `a` and `b`: [median a, median b, median of (b − a)]. */
async function paired(a, b) {
  for (let i = 0; i < WARM_UP; i++) {
    await a();
    await b();
  }
  const am = [];
  const bm = [];
  for (let i = 0; i < CALLS; i++) {
    for (const [fn, out] of i % 2
      ? [
          [a, am],
          [b, bm],
        ]
      : [
          [b, bm],
          [a, am],
        ]) {
      const t0 = performance.now();
      await fn();
      out.push(performance.now() - t0);
    }
  }
  return [median(am), median(bm), median(bm.map((t, i) => t - am[i]))];
}

async function roundTrip(sandbox, onEnv, baseline) {
  const serverOff = await startServer(sandbox, {});
  const serverOn = await startServer(sandbox, onEnv);
  const serverBase = baseline ? await startServer(sandbox, {}, baseline) : undefined;
  const off = await connect(serverOff.url);
  const on = await connect(serverOn.url);
  const base = serverBase ? await connect(serverBase.url) : undefined;
  const args = { name: "serp_search", arguments: { search_engine: "engine1_search", query: "hiking boots" } };
  const call = (c) => async () => {
    const r = await c.client.callTool(args);
    if (r.isError) throw new Error(`serp_search: ${r.content[0]?.text}`);
  };
  try {
    const [offMs, onMs, diff] = await paired(call(off), call(on));
    const rows = [
      {
        metric: `serp_search over HTTP, telemetry on − off, median of ${CALLS} paired differences`,
        value: diff,
        unit: "ms",
        compare: `off ${round(offMs)} ms vs on ${round(onMs)} ms (a server span, a client span, 3 metric records)`,
        target: "≤ 1 ms",
        ok: diff <= 1,
      },
    ];
    if (base) {
      const [baseMs, offMs2, offDiff] = await paired(call(base), call(off));
      rows.push({
        metric: `serp_search over HTTP, telemetry off − build before telemetry, median of ${CALLS} paired differences`,
        value: offDiff,
        unit: "ms",
        compare: `before ${round(baseMs)} ms vs off ${round(offMs2)} ms`,
        target: "≤ 0.1 ms",
        ok: offDiff <= 0.1,
      });
    }
    return rows;
  } finally {
    await off.close();
    await on.close();
    await base?.close();
    await serverOff.stop();
    await serverOn.stop();
    await serverBase?.stop();
  }
}

export async function run() {
  const sandbox = await startSandboxProcess({ key: KEY });
  const sink = await startSink();
  const onEnv = {
    OTEL_EXPORTER_OTLP_ENDPOINT: sink.url,
    OTEL_EXPORTER_OTLP_PROTOCOL: "http/protobuf",
    WEBDATA_METRICS: "1",
  };
  try {
    const baseline = process.env.BENCH_BASELINE_CLI;
    const rows = [
      await chunkCost(),
      ...(await startup(sandbox, onEnv, baseline)),
      ...(await roundTrip(sandbox, onEnv, baseline)),
    ];
    rows.push({
      metric: "OTLP bytes received by the sink during the bench",
      value: sink.bytes(),
      unit: "B",
      compare: "telemetry on exports (traces flush on SIGTERM)",
      target: "> 0",
      ok: sink.bytes() > 0,
    });
    return rows;
  } finally {
    await sink.close();
    await sandbox.close();
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  printTable((await run()).map((r) => ({ group: "telemetry", ...r })));
}
