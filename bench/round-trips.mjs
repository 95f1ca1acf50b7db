// Redis round trips per tool call (issue 23), counted on the wire as the round-trip test does
// (scripts/redis-proxy.mjs between one replica and Redis): one `serp_search` in an open session,
// the median of 5 calls after a warm-up one. With `BENCH_BASELINE_CLI=<older dist/cli.cjs>` the
// same count for that build, side by side (docs/benchmarks.md says how to build the one before
// issue 23).
import { spawn } from "node:child_process";
import { once } from "node:events";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { CLI, freePort, startRedisServer } from "../scripts/fleet.mjs";
import { countingRedisProxy } from "../scripts/redis-proxy.mjs";

const CALLS = 5;

/** Median round trips per serp_search call of the replica built at `cli`. */
export async function roundTripsPerCall(cli, { key, baseUrl }) {
  const dir = mkdtempSync(join(tmpdir(), "webdata-trips-"));
  const redis = await startRedisServer(dir);
  const proxy = await countingRedisProxy(redis.url);
  const port = await freePort();
  const env = { PATH: process.env.PATH, HOME: process.env.HOME };
  Object.assign(env, {
    WEBDATA_API_KEY: key,
    WEBDATA_BASE_URL: baseUrl,
    WEBDATA_REDIS_URL: proxy.url,
    WEBDATA_CACHE_DIR: join(dir, "cache"),
    WEBDATA_MAX_RPS: "100000",
  });
  const child = spawn(process.execPath, [cli, "--http", "--port", String(port)], { env, stdio: "ignore" });
  const transport = new StreamableHTTPClientTransport(new URL(`http://127.0.0.1:${port}/mcp`));
  const client = new Client({ name: "bench-trips", version: "1" });
  try {
    await untilHealthy(port, child);
    await client.connect(transport);
    const call = (query) =>
      client.callTool({ name: "serp_search", arguments: { search_engine: "engine1_search", query } });
    await call("warm-up");
    const counts = [];
    for (let i = 0; i < CALLS; i++) {
      proxy.reset();
      const r = await call(`trip ${i}`);
      if (r.isError) throw new Error(`serp_search failed: ${JSON.stringify(r.content).slice(0, 200)}`);
      counts.push(proxy.writes().length);
    }
    counts.sort((a, b) => a - b);
    return { median: counts[Math.floor(CALLS / 2)], counts };
  } finally {
    await transport.terminateSession().catch(() => {});
    await client.close();
    child.kill("SIGKILL");
    if (child.exitCode === null && child.signalCode === null) await once(child, "exit");
    await proxy.close();
    await redis.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}

async function untilHealthy(port, child) {
  for (;;) {
    if (child.exitCode !== null) throw new Error(`the replica exited (${child.exitCode}) before listening`);
    const ok = await fetch(`http://127.0.0.1:${port}/healthz`).then(
      (r) => r.ok,
      () => false,
    );
    if (ok) return;
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** The rows: this build's count, beside the baseline build's when one is given. */
export async function roundTripRows(target) {
  const after = await roundTripsPerCall(CLI, target);
  const baselineCli = process.env.BENCH_BASELINE_CLI;
  const before = baselineCli ? await roundTripsPerCall(baselineCli, target) : undefined;
  return [
    {
      metric: "Redis round trips per serp_search call in an open session (median of 5, on the wire)",
      value: after.median,
      unit: "",
      compare: before
        ? `before issue 23 (BENCH_BASELINE_CLI): ${before.median} (${before.counts.join(", ")}); ratio ${(after.median / before.median).toFixed(2)}`
        : "before issue 23: 10 (measured at 05fa029; set BENCH_BASELINE_CLI to re-measure)",
      target: "≤ 3",
      ok: after.median <= 3,
    },
  ];
}
