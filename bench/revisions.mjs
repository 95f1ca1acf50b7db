// Start-up and per-call cost of serving two MCP revisions (issue 32): `node bench/revisions.mjs
// [BASE_CLI]` runs, interleaved round by round so load on the machine hits all alike,
//  - stdio spawn → first tools/list answer: a 2025 client (SDK 1.x: initialize + tools/list) on
//    BASE_CLI (a build without the 2026 path, when given) and on this build, and the official v2
//    client pinned to 2026-07-28 (server/discover + tools/list) on this build;
//  - per-call overhead over HTTP on one server: a 2025 session client and a pinned 2026 client,
//    the same cheap tool call, median of many.

import { fileURLToPath } from "node:url";
import { Client as ClientV2, StreamableHTTPClientTransport as HttpV2 } from "@modelcontextprotocol/client";
import { StdioClientTransport as StdioV2 } from "@modelcontextprotocol/client/stdio";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { getDefaultEnvironment } from "@modelcontextprotocol/sdk/client/stdio.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { loadConfig } from "../dist/config.js";
import { startSandbox } from "../dist/sandbox/index.js";
import { startHttpServer } from "../dist/server/http.js";
import { spawnToList } from "./server.mjs";
import { median, printTable, round } from "./table.mjs";

const CLI = fileURLToPath(new URL("../dist/cli.cjs", import.meta.url));
const BASE = process.argv[2];
const KEY = "wdk_BENCHQZXJVKWPRTMNHG";
const ROUNDS = Number(process.env.ROUNDS ?? 10);
const CALLS = Number(process.env.CALLS ?? 300);

async function modernSpawnToList(env) {
  const t0 = performance.now();
  const client = new ClientV2(
    { name: "bench", version: "0" },
    { versionNegotiation: { mode: { pin: "2026-07-28" } } },
  );
  await client.connect(
    new StdioV2({
      command: process.execPath,
      args: [CLI],
      env: { ...getDefaultEnvironment(), ...env },
      stderr: "ignore",
    }),
  );
  await client.listTools();
  const ms = performance.now() - t0;
  await client.close();
  return ms;
}

async function perCall(url) {
  const legacy = new Client({ name: "bench", version: "0" });
  await legacy.connect(new StreamableHTTPClientTransport(new URL(url)));
  const modern = new ClientV2(
    { name: "bench", version: "0" },
    { versionNegotiation: { mode: { pin: "2026-07-28" } } },
  );
  await modern.connect(new HttpV2(new URL(url)));
  const args = { name: "check_domain_health", arguments: { domains: ["example.com"] } };
  const times = { legacy: [], modern: [] };
  for (let i = 0; i < CALLS; i++) {
    let t0 = performance.now();
    await legacy.callTool(args);
    times.legacy.push(performance.now() - t0);
    t0 = performance.now();
    await modern.callTool(args);
    times.modern.push(performance.now() - t0);
  }
  await legacy.close();
  await modern.close();
  const warm = (xs) => xs.slice(Math.floor(xs.length / 3));
  return { legacy: median(warm(times.legacy)), modern: median(warm(times.modern)) };
}

const sandbox = await startSandbox({ rateLimit: 1_000_000, key: KEY });
try {
  const env = { WEBDATA_BASE_URL: sandbox.url, WEBDATA_API_KEY: KEY, WEBDATA_MAX_RPS: "1000000" };
  const runs = { base: [], ours: [], modern: [] };
  for (let i = 0; i < ROUNDS; i++) {
    if (BASE) runs.base.push(await spawnToList(process.execPath, [BASE], env));
    runs.ours.push(await spawnToList(process.execPath, [CLI], env));
    runs.modern.push(await modernSpawnToList(env));
  }
  const http = await startHttpServer({
    config: loadConfig({ ...env, WEBDATA_BASE_URL: sandbox.url }),
    port: 0,
    log: () => {},
  });
  const calls = await perCall(http.url).finally(() => http.shutdown(0));
  const rows = [
    ...(BASE
      ? [
          {
            metric: `stdio spawn → tools/list, 2025 client, before (median of ${ROUNDS})`,
            value: median(runs.base),
            unit: "ms",
          },
        ]
      : []),
    {
      metric: `stdio spawn → tools/list, 2025 client, after (median of ${ROUNDS})`,
      value: median(runs.ours),
      unit: "ms",
      compare: BASE ? `after / before ${round(median(runs.ours) / median(runs.base), 2)}` : "",
    },
    {
      metric: `stdio spawn → discover + tools/list, pinned 2026-07-28 v2 client (median of ${ROUNDS})`,
      value: median(runs.modern),
      unit: "ms",
    },
    {
      metric: `HTTP tools/call round trip, 2025 session client (median of ${CALLS}, warm)`,
      value: calls.legacy,
      unit: "ms",
    },
    {
      metric: `HTTP tools/call round trip, 2026-07-28 pinned client (median of ${CALLS}, warm)`,
      value: calls.modern,
      unit: "ms",
    },
  ];
  printTable(rows);
} finally {
  await sandbox.close();
}
