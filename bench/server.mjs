// Server benchmarks (run `npm run build` first): the built stdio server `node dist/cli.cjs` against
// the in-process sandbox, driven by the SDK client.
// - spawn → initialize + tools/list (median of 10 spawns) beside peer servers (bench/peers.mjs) and a
//   bare `node -e ""`, interleaved;
// - size of tools/list in o200k tokens, all tools and per tool, with and without output schemas;
// - MCP round-trip overhead of a tool call over the raw API call it makes (median), with the SDK
//   client and with a bare JSON-RPC line client (the server's own share, without the SDK client's
//   parsing and output-schema check); the sandbox then runs in a process of its own, as far from
//   the bench's raw call as from the server's (bench/sandbox-process.mjs);
// - tokens of a default serp_search result with 10 organic results.
import { spawn } from "node:child_process";
import { fileURLToPath } from "node:url";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { getDefaultEnvironment, StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { encode } from "gpt-tokenizer/encoding/o200k_base";
import { WebDataClient } from "../dist/api/client.js";
import { startSandbox } from "../dist/sandbox/index.js";
import { installedPeers } from "./peers.mjs";
import { startSandboxProcess } from "./sandbox-process.mjs";
import { median, printTable, round } from "./table.mjs";

const CLI = fileURLToPath(new URL("../dist/cli.cjs", import.meta.url));
const KEY = "wdk_BENCHQZXJVKWPRTMNHG";
const SPAWNS = 10;
const CALLS = 1000;
/** Calls before measuring: the server's hot paths are then optimised, as in any long session. */
const WARM_UP = 300;
const tokens = (value) => encode(typeof value === "string" ? value : JSON.stringify(value)).length;

/** An SDK client over stdio to the built server `cli` (this checkout's by default) on `sandbox`. */
export async function connect(sandbox, extraEnv = {}, cli = CLI) {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [cli],
    env: {
      ...getDefaultEnvironment(),
      WEBDATA_BASE_URL: sandbox.url,
      WEBDATA_API_KEY: KEY,
      WEBDATA_MAX_RPS: "1000000",
      ...extraEnv,
    },
    stderr: "ignore",
  });
  const client = new Client({ name: "bench", version: "0" });
  await client.connect(transport);
  return { client, close: () => client.close() };
}

/** The built server driven by newline-delimited JSON-RPC alone: no SDK client in the way. */
async function connectRaw(sandbox) {
  const child = spawn(process.execPath, [CLI], {
    env: { ...process.env, WEBDATA_BASE_URL: sandbox.url, WEBDATA_API_KEY: KEY, WEBDATA_MAX_RPS: "1000000" },
    stdio: ["pipe", "pipe", "ignore"],
  });
  const pending = new Map();
  let buffer = "";
  let nextId = 0;
  child.stdout.setEncoding("utf8");
  child.stdout.on("data", (chunk) => {
    buffer += chunk;
    for (let end = buffer.indexOf("\n"); end >= 0; end = buffer.indexOf("\n")) {
      const message = JSON.parse(buffer.slice(0, end));
      buffer = buffer.slice(end + 1);
      pending.get(message.id)?.(message);
      pending.delete(message.id);
    }
  });
  const request = (method, params) =>
    new Promise((resolve) => {
      const id = ++nextId;
      pending.set(id, resolve);
      child.stdin.write(`${JSON.stringify({ jsonrpc: "2.0", id, method, params })}\n`);
    });
  await request("initialize", {
    protocolVersion: "2025-06-18",
    capabilities: {},
    clientInfo: { name: "bench-raw", version: "0" },
  });
  child.stdin.write(`${JSON.stringify({ jsonrpc: "2.0", method: "notifications/initialized" })}\n`);
  return {
    call: async (name, args) => {
      const reply = await request("tools/call", { name, arguments: args });
      if (reply.error || reply.result?.isError) throw new Error(`${name}: ${JSON.stringify(reply)}`);
    },
    close: () => {
      child.stdin.end();
      return new Promise((resolve) => child.once("exit", resolve));
    },
  };
}

/** Spawn-to-exit time of a bare `node -e ""`: the floor any Node server starts from on this machine. */
async function nodeFloorOnce() {
  const t0 = performance.now();
  await new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ["-e", ""], { stdio: "ignore" });
    child.once("error", reject);
    child.once("exit", resolve);
  });
  return performance.now() - t0;
}

/** Spawn → initialize + tools/list of a stdio server (SDK client), one run, in ms. */
export async function spawnToList(command, args, env) {
  const t0 = performance.now();
  const transport = new StdioClientTransport({
    command,
    args,
    env: { ...getDefaultEnvironment(), ...env },
    stderr: "ignore",
  });
  const client = new Client({ name: "bench", version: "0" });
  await client.connect(transport);
  await client.listTools();
  const ms = performance.now() - t0;
  await client.close();
  return ms;
}

/**
 * Ours beside the peers and a bare `node -e ""`, runs interleaved (one of each per round) so load
 * on the machine hits all alike; the target is the best peer's median.
 */
async function startup(sandbox) {
  const peers = installedPeers();
  const ours = [];
  const theirs = new Map(peers.map((p) => [p.name, []]));
  const floor = [];
  for (let i = 0; i < SPAWNS; i++) {
    ours.push(
      await spawnToList(process.execPath, [CLI], {
        WEBDATA_BASE_URL: sandbox.url,
        WEBDATA_API_KEY: KEY,
      }),
    );
    for (const p of peers) theirs.get(p.name).push(await spawnToList(process.execPath, [p.path], p.env));
    floor.push(await nodeFloorOnce());
  }
  const value = median(ours);
  const peerMedians = peers.map((p) => ({ name: p.name, ms: median(theirs.get(p.name)) }));
  const best = Math.min(...peerMedians.map((p) => p.ms));
  const compare = [
    ...peerMedians.map((p) => `${p.name} ${round(p.ms)} ms`),
    `bare node -e '' ${round(median(floor))} ms`,
  ].join("; ");
  return [
    {
      metric: `spawn → initialize + tools/list, median of ${SPAWNS} (SDK client, interleaved with peers)`,
      value,
      unit: "ms",
      compare: peers.length > 0 ? compare : `no peer installed; bare node -e '' ${round(median(floor))} ms`,
      target: peers.length > 0 ? `≤ best peer (${round(best)} ms)` : "≤ best peer",
      ok: peers.length > 0 ? value <= best : undefined,
    },
  ];
}

async function listSize(sandbox) {
  // Every static tool: all toolsets, legacy included.
  const { client, close } = await connect(sandbox, {
    WEBDATA_TOOLSETS: "all",
    WEBDATA_LEGACY_AUTH: "demo:demo",
  });
  try {
    const { tools } = await client.listTools();
    const bare = tools.map(({ outputSchema: _o, ...rest }) => rest);
    const full = tokens({ tools });
    const noOutput = tokens({ tools: bare });
    const rows = [
      {
        metric: `tools/list, ${tools.length} tools, with output schemas`,
        value: full,
        unit: "tokens",
        target: "≤ 3500",
        ok: full <= 3500,
      },
      {
        metric: `tools/list, ${tools.length} tools, without output schemas`,
        value: noOutput,
        unit: "tokens",
      },
    ];
    for (const [i, tool] of tools.entries()) {
      const without = tokens(bare[i]);
      rows.push({
        metric: `  ${tool.name} (without / with output schema)`,
        value: without,
        unit: "tokens",
        compare: `${tokens(tool)} with`,
        target: "≤ 200",
        ok: without <= 200,
      });
    }
    return rows;
  } finally {
    await close();
  }
}

/**
 * Median times of `a` and `b` over CALLS calls each, run in adjacent pairs (order alternating),
 * and the median of the pairs' differences: the machine's slow and fast spells then hit both
 * calls of a pair alike instead of shifting one median against the other.
 */
async function paired(a, b) {
  const am = [];
  const bm = [];
  for (let i = 0; i < WARM_UP; i++) {
    await a();
    await b();
  }
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
  return [median(am), median(bm), median(am.map((t, i) => t - bm[i]))];
}

async function roundTrip() {
  const sandbox = await startSandboxProcess({ key: KEY });
  const { client, close } = await connect(sandbox);
  const bare = await connectRaw(sandbox);
  const api = new WebDataClient({ baseUrl: sandbox.url, apiKey: KEY, maxRps: 1_000_000 });
  const rows = [];
  try {
    const cases = [
      [
        "serp_search",
        { search_engine: "engine1_search", query: "hiking boots" },
        () => api.serp({ search_engine: "engine1_search", query: "hiking boots" }),
      ],
      [
        "extract_page",
        { url: `${sandbox.siteUrl}/` },
        () => api.extract({ url: `${sandbox.siteUrl}/`, render: false, formats: ["markdown"] }),
      ],
    ];
    for (const [name, args, raw] of cases) {
      const viaMcp = async () => {
        const r = await client.callTool({ name, arguments: args });
        if (r.isError) throw new Error(`${name}: ${r.content[0]?.text}`);
      };
      const [mcpMs, rawMs, overhead] = await paired(viaMcp, raw);
      rows.push({
        metric: `${name}: MCP round trip over the raw API call, median of paired differences`,
        value: overhead,
        unit: "ms",
        compare: `MCP ${round(mcpMs)} ms vs API ${round(rawMs)} ms`,
        target: "≤ 1 ms",
        ok: overhead <= 1,
      });
      const [lineMs, rawMs2, lineOverhead] = await paired(() => bare.call(name, args), raw);
      rows.push({
        metric: `${name}: same, bare JSON-RPC client (the server's share), median`,
        value: lineOverhead,
        unit: "ms",
        compare: `MCP ${round(lineMs)} ms vs API ${round(rawMs2)} ms; SDK client adds ${round(mcpMs - lineMs)} ms`,
        target: "≤ 1 ms",
        ok: lineOverhead <= 1,
      });
    }
    const serp = await client.callTool({
      name: "serp_search",
      arguments: { search_engine: "engine1_search", query: "hiking boots", num_results: 10 },
    });
    const organic = serp.structuredContent?.results?.length ?? 0;
    const size = tokens(serp.content.map((c) => c.text ?? "").join("\n")) + tokens(serp.structuredContent);
    rows.push({
      metric: `serp_search result, ${organic} organic results (text + structured)`,
      value: size,
      unit: "tokens",
      compare: `text ${tokens(serp.content[0].text)}, structured ${tokens(serp.structuredContent)}`,
      target: "≤ 1500",
      ok: size <= 1500 && organic === 10,
    });
    return rows;
  } finally {
    await close();
    await bare.close();
    await api.close();
    await sandbox.close();
  }
}

export async function run() {
  const sandbox = await startSandbox({ rateLimit: 1_000_000, key: KEY });
  try {
    return [...(await startup(sandbox)), ...(await listSize(sandbox)), ...(await roundTrip())];
  } finally {
    await sandbox.close();
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  printTable((await run()).map((r) => ({ group: "server", ...r })));
}
