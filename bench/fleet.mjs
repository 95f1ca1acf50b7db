// The fleet rows of `npm run bench` (issues 15 and 23): Redis round trips per tool call, this build
// beside the one before issue 23 (bench/round-trips.mjs); calls/s and p99 through 1 and 3 replicas
// behind nginx with Redis (the sandbox's rate limit off), as ratios; with the limit on (83/s per key), 1,000 calls
// spread over 3 replicas against the 83/s bound and their 429 count; and RSS per idle session.
// Every part is real: redis-server, nginx, the built server, the sandbox in its own process.
import { readFileSync } from "node:fs";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { startFleet } from "../scripts/fleet.mjs";
import { roundTripRows } from "./round-trips.mjs";
import { startSandboxProcess } from "./sandbox-process.mjs";

const KEY = "wdk_benchFLEETQZXJVKW";
const CLIENTS = 16;
const CALLS = 1_600;
const ROUNDS = 4;
const REPLICAS = [1, 3];
const LIMITED_CALLS = 1_000;
const RATE = 83;
const SESSIONS = 1_000;

const round = (n, d = 1) => Math.round(n * 10 ** d) / 10 ** d;
const p = (sorted, q) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))];
const serp = (i) => ({ name: "serp_search", arguments: { search_engine: "engine1_search", query: `q${i}` } });

async function connect(url) {
  const client = new Client({ name: "bench-fleet", version: "1" });
  const transport = new StreamableHTTPClientTransport(new URL(url));
  await client.connect(transport);
  return { client, close: () => transport.terminateSession().then(() => client.close()) };
}

/** `calls` serp_search calls from `CLIENTS` sessions at once; throughput and latency. */
async function drive(url, calls) {
  const clients = await Promise.all(Array.from({ length: CLIENTS }, () => connect(url)));
  const latencies = [];
  let next = 0;
  let errors = 0;
  const started = performance.now();
  await Promise.all(
    clients.map(async ({ client }) => {
      while (next < calls) {
        const i = next++;
        const t = performance.now();
        const r = await client.callTool(serp(i), undefined, { timeout: 120_000 });
        latencies.push(performance.now() - t);
        if (r.isError) errors++;
      }
    }),
  );
  const seconds = (performance.now() - started) / 1000;
  await Promise.all(clients.map((c) => c.close()));
  latencies.sort((a, b) => a - b);
  return { perSecond: calls / seconds, p99: p(latencies, 0.99), seconds, errors, latencies };
}

/**
 * Calls/s and p99 through 1 and 3 replicas. Both fleets run side by side and take turns, `ROUNDS`
 * rounds of `CALLS / ROUNDS` calls each, so a change in the shared machine's load between two
 * runs weighs on both alike; calls/s is the median of the rounds.
 */
async function throughputRows(baseUrl) {
  const env = { WEBDATA_API_KEY: KEY, WEBDATA_BASE_URL: baseUrl, WEBDATA_MAX_RPS: "100000" };
  const fleets = new Map();
  try {
    for (const replicas of REPLICAS) fleets.set(replicas, await startFleet({ replicas, env }));
    for (const fleet of fleets.values()) await drive(fleet.url, 100); // warm-up
    const runs = new Map(REPLICAS.map((n) => [n, []]));
    for (let round = 0; round < ROUNDS; round++)
      for (const [n, fleet] of fleets) runs.get(n).push(await drive(fleet.url, CALLS / ROUNDS));
    const of = (n) => {
      const rates = runs.get(n).map((r) => r.perSecond);
      const latencies = runs
        .get(n)
        .flatMap((r) => r.latencies)
        .sort((a, b) => a - b);
      const errors = runs.get(n).reduce((sum, r) => sum + r.errors, 0);
      return {
        rates,
        median: [...rates].sort((a, b) => a - b)[Math.floor(rates.length / 2)],
        p99: p(latencies, 0.99),
        errors,
      };
    };
    const one = of(1);
    return REPLICAS.flatMap((n) => {
      const r = of(n);
      const ratio = n === 1 ? "" : `; ${n}/1: ${(r.median / one.median).toFixed(2)}×`;
      return [
        {
          metric: `serp_search through nginx, ${n} replica(s) + Redis, ${CLIENTS} sessions: calls/s (median of ${ROUNDS} rounds)`,
          value: round(r.median),
          unit: "calls/s",
          compare: `rounds ${r.rates.map((x) => round(x)).join(", ")}${n === 1 ? "" : `; 1 replica: ${round(one.median)}`}${ratio}`,
          target: "no errors (2 shared cores: more replicas add no CPU here)",
          ok: r.errors === 0,
        },
        {
          metric: `serp_search through nginx, ${n} replica(s): p99 latency`,
          value: round(r.p99),
          unit: "ms",
          compare:
            n === 1
              ? "one replica"
              : `1 replica: ${round(one.p99)} ms; ${n}/1: ${(r.p99 / one.p99).toFixed(2)}×`,
          target: "< 250 ms",
          ok: r.p99 < 250,
        },
      ];
    });
  } finally {
    for (const fleet of fleets.values()) await fleet.stop();
  }
}

const rssKb = (pid) => Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, "utf8"))[1]);

export async function run() {
  const rows = [];
  const open = await startSandboxProcess({ key: KEY });
  try {
    rows.push(...(await roundTripRows({ key: KEY, baseUrl: open.url })));
    rows.push(...(await throughputRows(open.url)));
  } finally {
    await open.close();
  }

  const limited = await startSandboxProcess({ key: KEY, rateLimit: RATE });
  try {
    const fleet = await startFleet({
      replicas: 3,
      env: { WEBDATA_API_KEY: KEY, WEBDATA_BASE_URL: limited.url, WEBDATA_MAX_RPS: String(RATE) },
    });
    try {
      const r = await drive(fleet.url, LIMITED_CALLS);
      const requests = (await (await fetch(`${limited.url}/_sandbox/requests`)).json()).requests;
      const bound = LIMITED_CALLS / RATE;
      rows.push({
        metric: `${LIMITED_CALLS} calls over 3 replicas, sandbox at ${RATE}/s per key: time`,
        value: round(r.seconds, 2),
        unit: "s",
        compare: `the ${RATE}/s bound: ${round(bound, 2)} s`,
        target: "within 25% of the bound",
        ok: r.seconds <= bound * 1.25 && r.errors === 0,
      });
      rows.push({
        metric: `${LIMITED_CALLS} calls over 3 replicas: 429s from the sandbox`,
        value: requests.filter((q) => q.status === 429).length,
        unit: "",
        compare: `${requests.length} upstream requests`,
        target: "0",
        ok: requests.every((q) => q.status !== 429),
      });
    } finally {
      await fleet.stop();
    }
  } finally {
    await limited.close();
  }

  const idle = await startSandboxProcess({ key: KEY });
  try {
    const memory = await startMemoryReplica(idle.url);
    try {
      rows.push(await idleSessions(memory, "records in this process"));
    } finally {
      memory.child.kill("SIGKILL");
    }
    const fleet = await startFleet({
      replicas: 1,
      env: { WEBDATA_API_KEY: KEY, WEBDATA_BASE_URL: idle.url },
    });
    try {
      rows.push(await idleSessions(fleet.replicas[0], "records in Redis"));
    } finally {
      await fleet.stop();
    }
  } finally {
    await idle.close();
  }
  return rows;
}

/**
 * Opens `SESSIONS` sessions (initialize only) on one replica after as many for warm-up (the heap
 * grows to its working size first), and reads its RSS across the second batch.
 */
async function idleSessions(replica, where) {
  await drive(replica.url, 20);
  await openSessions(replica.url);
  const before = rssKb(replica.child.pid);
  await openSessions(replica.url);
  const perSession = ((rssKb(replica.child.pid) - before) * 1024) / SESSIONS;
  return {
    metric: `RSS per idle session (${SESSIONS} more opened after ${SESSIONS}; ${where})`,
    value: Math.max(0, Math.round(perSession)),
    unit: "B",
    compare: "before this issue: one SDK server + transport held per session",
    target: "< 4 KiB",
    ok: perSession < 4096,
  };
}

async function openSessions(url) {
  const body = JSON.stringify({
    jsonrpc: "2.0",
    id: 1,
    method: "initialize",
    params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "idle", version: "1" } },
  });
  for (let i = 0; i < SESSIONS; i++) {
    const res = await fetch(url, {
      method: "POST",
      headers: { "content-type": "application/json", accept: "application/json, text/event-stream" },
      body,
    });
    await res.text();
  }
}

/** One replica without Redis (memory mode), for the in-memory session figure. */
async function startMemoryReplica(baseUrl) {
  const { spawn } = await import("node:child_process");
  const { CLI, freePort } = await import("../scripts/fleet.mjs");
  const port = await freePort();
  const env = { ...process.env, WEBDATA_API_KEY: KEY, WEBDATA_BASE_URL: baseUrl };
  delete env.WEBDATA_REDIS_URL;
  const child = spawn(process.execPath, [CLI, "--http", "--port", String(port)], { env, stdio: "ignore" });
  const url = `http://127.0.0.1:${port}/mcp`;
  for (;;) {
    const ok = await fetch(url.replace(/\/mcp$/, "/healthz")).then(
      () => true,
      () => false,
    );
    if (ok) break;
    await new Promise((r) => setTimeout(r, 50));
  }
  return { url, child };
}
