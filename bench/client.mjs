// Client and waiting benchmarks against the in-process sandbox (run `npm run build` first):
// - per-request overhead of WebDataClient over a raw undici request;
// - lag between a task turning `success` and waitFor returning, polling alone and with a callback;
// - requests spent per task (1–5 s tasks and one 30 s task);
// - time to collect a 1,000-item batch at the documented 83 requests/s, and its 429 count.
import { fileURLToPath } from "node:url";
import { Agent, request } from "undici";
import { WebDataClient } from "../dist/api/client.js";
import { startCallbackReceiver } from "../dist/async/callback-receiver.js";
import { waitFor } from "../dist/async/wait.js";
import { startSandbox } from "../dist/sandbox/index.js";
import { median, percentile, printTable, round } from "./table.mjs";

const RATE = 83;
const key = (name) => `bench-${name}-${process.pid}-${Math.random().toString(36).slice(2)}`;

async function overhead() {
  const sandbox = await startSandbox({ rateLimit: 1_000_000 });
  const apiKey = key("overhead");
  const client = new WebDataClient({ baseUrl: sandbox.url, apiKey, maxRps: 1_000_000 });
  const agent = new Agent({ keepAliveTimeout: 10_000 });
  try {
    const { task_id } = await client.extractAsync({ url: `${sandbox.siteUrl}/` });
    const url = `${sandbox.url}/v1/tasks/${task_id}`;
    const raw = async () => {
      const res = await request(url, { dispatcher: agent, headers: { authorization: `Bearer ${apiKey}` } });
      return res.body.json();
    };
    const viaClient = () => client.getTask(task_id);
    for (let i = 0; i < 100; i++) await Promise.all([raw(), viaClient()]).catch(() => {});
    const rawMs = [];
    const clientMs = [];
    for (let i = 0; i < 1_000; i++) {
      for (const [fn, out] of i % 2
        ? [
            [raw, rawMs],
            [viaClient, clientMs],
          ]
        : [
            [viaClient, clientMs],
            [raw, rawMs],
          ]) {
        const t0 = performance.now();
        await fn();
        out.push(performance.now() - t0);
      }
    }
    const extra = median(clientMs) - median(rawMs);
    return [
      { metric: "GET task: raw undici, median", value: median(rawMs), unit: "ms" },
      {
        metric: "GET task: WebDataClient, median",
        value: median(clientMs),
        unit: "ms",
        compare: `raw ${round(median(rawMs))} ms`,
      },
      {
        metric: "client overhead, median",
        value: extra,
        unit: "ms",
        compare: `ratio ${round(median(clientMs) / median(rawMs))}x`,
        target: "<= 1 ms",
        ok: extra <= 1,
      },
    ];
  } finally {
    await client.close();
    await agent.close();
    await sandbox.close();
  }
}

/** Submits `latencies.length` tasks (each with its own latency) and waits for all concurrently. */
async function lagRound(sandbox, client, latencies, receiver) {
  const ids = [];
  for (const ms of latencies) {
    sandbox.configure({ taskLatencyMs: ms });
    const body = { url: `${sandbox.siteUrl}/`, ...(receiver ? { callback_url: receiver.url } : {}) };
    ids.push((await client.extractAsync(body)).task_id);
  }
  const outcomes = await Promise.all(
    ids.map(async (id) => {
      const outcome = await waitFor(
        client,
        { kind: "task", id },
        { deadlineMs: 60_000, completion: receiver },
      );
      const returnedAt = Date.now();
      return { id, outcome, lag: returnedAt - Date.parse(outcome.record.modified_at) };
    }),
  );
  const polls = (id) => sandbox.requests.filter((r) => r.path === `/v1/tasks/${id}`).length;
  return { lags: outcomes.map((o) => o.lag), requests: outcomes.map((o) => polls(o.id)) };
}

async function lag() {
  // Callbacks on: the sandbox sends none unless asked (it stays local by default).
  const sandbox = await startSandbox({ rateLimit: 1_000, allowCallbacks: true });
  const client = new WebDataClient({ baseUrl: sandbox.url, apiKey: key("lag"), maxRps: 1_000 });
  const receiver = await startCallbackReceiver();
  const rows = [];
  try {
    const latencies = Array.from({ length: 20 }, () => 1_000 + Math.round(Math.random() * 4_000));
    for (const [mode, completion] of [
      ["polling", undefined],
      ["callback", receiver],
    ]) {
      const short = await lagRound(sandbox, client, latencies, completion);
      rows.push(
        {
          metric: `lag after success, 20 tasks 1–5 s (${mode}), median`,
          value: median(short.lags),
          unit: "ms",
          compare: "spec example: 15 s interval (7.5 s mean)",
          target: "<= 250 ms",
          ok: median(short.lags) <= 250,
        },
        {
          metric: `lag after success, 20 tasks 1–5 s (${mode}), p95`,
          value: percentile(short.lags, 95),
          unit: "ms",
          compare: "spec example: 15 s",
          target: "<= 1000 ms",
          ok: percentile(short.lags, 95) <= 1_000,
        },
        {
          metric: `requests per 1–5 s task (${mode}), mean`,
          value: short.requests.reduce((a, b) => a + b, 0) / short.requests.length,
          unit: "req",
          compare: "spec example: 1 per 15 s",
        },
      );
    }
    const [polling30, callback30] = await Promise.all([
      lagRound(sandbox, client, [30_000], undefined),
      lagRound(sandbox, client, [30_000], receiver),
    ]);
    for (const [mode, r] of [
      ["polling", polling30],
      ["callback", callback30],
    ]) {
      rows.push({
        metric: `requests for a 30 s task (${mode})`,
        value: r.requests[0],
        unit: "req",
        compare: `lag ${r.lags[0]} ms; spec example: 2–3`,
        target: "<= 10",
        ok: r.requests[0] <= 10,
      });
    }
    return rows;
  } finally {
    await receiver.close();
    await client.close();
    await sandbox.close();
  }
}

async function batch() {
  const sandbox = await startSandbox({ rateLimit: RATE });
  const client = new WebDataClient({ baseUrl: sandbox.url, apiKey: key("batch"), maxRps: RATE });
  try {
    const inputs = Array.from({ length: 1_000 }, (_, i) => ({ url: `${sandbox.siteUrl}/blog?item=${i}` }));
    const started = performance.now();
    const { batch_id } = await client.extractBatch({ inputs, shared_inputs: { formats: ["markdown"] } });
    const outcome = await waitFor(client, { kind: "batch", id: batch_id }, { deadlineMs: 120_000 });
    if (outcome.status !== "done") throw new Error(`batch did not complete: ${outcome.status}`);
    const completed = performance.now();
    const { tasks } = await client.getBatch(batch_id);
    const results = await Promise.all(tasks.map((t) => client.getTaskResults(t.id)));
    const ended = performance.now();
    const collect = (ended - completed) / 1000;
    const total = (ended - started) / 1000;
    const bound = 1_000 / RATE;
    const limited = sandbox.requests.filter((r) => r.status === 429).length;
    return [
      {
        metric: "1,000-item batch: collect all results once done",
        value: collect,
        unit: "s",
        compare: `bound 1000/${RATE} = ${round(bound)} s (${round(collect / bound)}x)`,
        target: "<= 1.1x bound",
        ok: collect <= bound * 1.1,
      },
      {
        metric: "1,000-item batch: submit to all results",
        value: total,
        unit: "s",
        compare: `submit + run ${round((completed - started) / 1000)} s; ${round(total / bound)}x bound`,
      },
      {
        metric: "1,000-item batch: 429 responses",
        value: limited,
        unit: "count",
        compare: `${sandbox.requests.length} requests, ${results.length} results`,
        target: "0",
        ok: limited === 0,
      },
    ];
  } finally {
    await client.close();
    await sandbox.close();
  }
}

const PARTS = { overhead, lag, batch };

/** All rows, or those of the named parts (`node bench/client.mjs batch lag`). */
export async function run(parts = Object.keys(PARTS)) {
  const rows = [];
  for (const name of parts) rows.push(...(await PARTS[name]()));
  return rows;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const asked = process.argv.slice(2).filter((name) => name in PARTS);
  printTable(await run(asked.length > 0 ? asked : undefined));
}
