// Issue 30's attacker, items 2–3, as figures for `node bench/run.mjs attack`: on the same deployment
// as bench/attack.mjs (one replica behind nginx on Redis, OAuth, one shared key), now and on the
// build of a40b9cd (main before issue 30), in the same run:
// - bob's serp_search alone and while alice keeps 600 serp_search calls in flight from a process of
//   her own (bench/attack-flood.mjs: bob's timings must not share her client's CPU; a refused call
//   waits the retry_after it was given, as a client should), median and p95;
// - what alice sees of her flood (answered, refused, and the refusal's words);
// - 600 MCP task records asked by alice (bad arguments, 24 h TTL): created, refused, Redis growth,
//   and whether bob's task is created meanwhile;
// - 70 resumed streams opened by alice on one of her calls: open, refused; whether bob's resume of
//   his own call still delivers its answer.
import { spawn } from "node:child_process";
import { once } from "node:events";
import { fileURLToPath } from "node:url";
import { redisUsedMb } from "./memory.mjs";

const FLOOD_SCRIPT = fileURLToPath(new URL("./attack-flood.mjs", import.meta.url));
const FLOOD = 600;
const PROBES = 7;
const TASKS = 600;
const RESUMES = 70;

const round = (n, d = 0) => Math.round(n * 10 ** d) / 10 ** d;
const q = (sorted, p) => sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))];
const text = (r) => (r.content ?? []).map((c) => c.text ?? "").join("\n");
const search = (query, mode = "normal") => ({ search_engine: "engine1_search", query, mode });
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/** The rows of the three parts, each now beside a40b9cd's (`baseline(part)` runs a part there). */
export async function capRows(target, baseline) {
  const rows = [];
  const now = await shortFlood(target);
  const before = await baseline((old) => shortFlood({ ...target, ...old }));
  rows.push(
    {
      metric: `bob's serp_search while alice keeps ${FLOOD} serp_search calls in flight: median / p95 (${PROBES} calls; busy machine)`,
      value: `${now.during.median} / ${now.during.p95}`,
      unit: "ms",
      compare: `alone ${now.alone.median} / ${now.alone.p95} ms (during/alone ${round(now.during.median / now.alone.median, 1)}×); ${before.label}: alone ${before.alone.median} / ${before.alone.p95}, during ${before.during.median} / ${before.during.p95} ms (${round(before.during.median / before.alone.median, 1)}×); now/before during: ${round(now.during.median / before.during.median, 3)}`,
      target: "median ≤ 1,500 ms during",
      ok: now.during.median <= 1_500,
    },
    {
      metric: `what alice sees of her first ${FLOOD} concurrent serp_search calls`,
      value: `${now.first.answered} answered, ${now.first.refused} refused`,
      unit: "",
      compare: `refusal: "${now.first.refusal}"; ${now.first.failed} failed otherwise; ${before.label}: ${before.first.answered} answered, ${before.first.refused} refused, ${before.first.failed} failed, her last answer after ${round(before.first.lastMs / 1000, 1)} s (now ${round(now.first.lastMs / 1000, 1)} s)`,
      target:
        "past 16 running + 100 waiting, refused at once naming the limit (what is answered depends on how fast calls end)",
      ok: now.first.refused > 0 && now.first.failed === 0,
    },
  );
  const tasksNow = await taskRecords(target);
  const tasksBefore = await baseline((old) => taskRecords({ ...target, ...old }));
  rows.push({
    metric: `alice asks ${TASKS} MCP task records (bad arguments, 24 h TTL): created / refused`,
    value: `${tasksNow.created} / ${tasksNow.refused}`,
    unit: "",
    compare: `refusal: "${tasksNow.refusal}"; bob's task meanwhile: ${tasksNow.bob}; Redis +${tasksNow.redisMb} MB; ${tasksBefore.label}: ${tasksBefore.created} / ${tasksBefore.refused}, Redis +${tasksBefore.redisMb} MB, bob's: ${tasksBefore.bob}`,
    target: "≤ 500 created, the rest refused; bob's created",
    ok: tasksNow.created <= 500 && tasksNow.bob === "created",
  });
  const resumesNow = await resumes(target);
  const resumesBefore = await baseline((old) => resumes({ ...target, ...old }));
  rows.push({
    metric: `alice opens ${RESUMES} resumed streams (Last-Event-ID) on one call: open / refused`,
    value: `${resumesNow.open} / ${resumesNow.refused}`,
    unit: "",
    compare: `statuses ${JSON.stringify(resumesNow.statuses)}; bob's resume of his own call meanwhile: ${resumesNow.bob}; ${resumesBefore.label}: ${resumesBefore.open} / ${resumesBefore.refused} (${JSON.stringify(resumesBefore.statuses)}), bob's: ${resumesBefore.bob}`,
    target: "alice ≤ 8 open, the rest 429 with Retry-After; bob's delivers his answer",
    ok: resumesNow.open <= 8 && resumesNow.bob === "answer delivered",
  });
  return rows;
}

/** Starts alice's flood in its own process (bench/attack-flood.mjs); `stop()` resolves to her first wave's figures. */
async function startFlood(url, token) {
  const child = spawn(process.execPath, [FLOOD_SCRIPT, url, token, String(FLOOD)], {
    stdio: ["pipe", "pipe", "inherit"],
  });
  child.stdout.setEncoding("utf8");
  const lines = child.stdout[Symbol.asyncIterator]();
  let buffer = "";
  const nextLine = async () => {
    while (!buffer.includes("\n")) {
      const { value, done } = await lines.next();
      if (done) throw new Error("the flood process ended early");
      buffer += value;
    }
    const at = buffer.indexOf("\n");
    const line = buffer.slice(0, at);
    buffer = buffer.slice(at + 1);
    return JSON.parse(line);
  };
  await nextLine();
  return {
    async stop() {
      child.stdin.end();
      const first = await nextLine();
      if (child.exitCode === null) await once(child, "exit");
      return first;
    },
  };
}

/** Bob's probes alone, then while alice's flood keeps FLOOD calls in flight (from another process). */
async function shortFlood({ url, tokens, connectAs }) {
  const bob = await connectAs(url, tokens.bob);
  const probe = async () => {
    const ms = [];
    for (let i = 0; i < PROBES; i++) {
      const started = performance.now();
      const r = await bob.call("serp_search", search(`bob ${i}`));
      if (r.isError) throw new Error(`bob's call failed: ${text(r).slice(0, 200)}`);
      ms.push(performance.now() - started);
    }
    ms.sort((a, b) => a - b);
    return { median: round(q(ms, 0.5)), p95: round(q(ms, 0.95)) };
  };
  try {
    const alone = await probe();
    const flood = await startFlood(url, tokens.alice);
    await sleep(500); // the first wave is in before bob's first probe
    const during = await probe();
    const first = await flood.stop();
    return { alone, during, first };
  } finally {
    await bob.close();
  }
}

async function taskRecords({ url, tokens, connectAs, fleet }) {
  const { CreateTaskResultSchema } = await import("@modelcontextprotocol/sdk/types.js");
  const alice = await connectAs(url, tokens.alice);
  const bob = await connectAs(url, tokens.bob);
  const bad = { name: "extract_page", arguments: { url: "not a url" }, task: { ttl: 86_400_000 } };
  const ask = (c) => c.client.request({ method: "tools/call", params: bad }, CreateTaskResultSchema);
  try {
    const before = await redisUsedMb(fleet.redisUrl);
    let created = 0;
    let refused = 0;
    let refusal = "";
    for (let i = 0; i < TASKS; i++) {
      await ask(alice).then(
        () => created++,
        (error) => {
          refused++;
          refusal ||= String(error?.message ?? error).slice(0, 160);
        },
      );
    }
    const bobTask = await ask(bob).then(
      () => "created",
      (error) => `refused (${String(error?.message ?? error).slice(0, 80)})`,
    );
    const redisMb = round((await redisUsedMb(fleet.redisUrl)) - before, 2);
    return { created, refused, refusal, bob: bobTask, redisMb };
  } finally {
    await alice.close();
    await bob.close();
  }
}

/**
 * A crawl on `c`'s session, with a progress token: resolves once its first progress event is
 * stored, with that event's id (a resume from it blocks on a reader until the crawl's next event).
 */
async function crawlWithProgress(url, token, c, siteUrl, limit, signal) {
  const response = await fetch(url, {
    method: "POST",
    signal,
    headers: {
      authorization: `Bearer ${token}`,
      "mcp-session-id": c.transport.sessionId,
      "mcp-protocol-version": "2025-11-25",
      "content-type": "application/json",
      accept: "application/json, text/event-stream",
    },
    body: JSON.stringify({
      jsonrpc: "2.0",
      id: 1,
      method: "tools/call",
      params: {
        name: "crawl_site",
        arguments: { url: `${siteUrl}/`, limit, max_chars: 200 },
        _meta: { progressToken: 1 },
      },
    }),
  });
  const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
  let buffer = "";
  for (;;) {
    const event = /(?:^|\n)id: ?(\S+)\ndata: ?([^\n]*notifications\/progress[^\n]*)\n/.exec(buffer);
    if (event) return event[1];
    const { value, done } = await reader.read();
    if (done) throw new Error("the crawl's stream ended before any progress");
    buffer += value;
  }
}

const resumeGet = (url, token, c, last, signal) =>
  fetch(url, {
    signal,
    headers: {
      authorization: `Bearer ${token}`,
      "mcp-session-id": c.transport.sessionId,
      "mcp-protocol-version": "2025-11-25",
      accept: "text/event-stream",
      "last-event-id": last,
    },
  });

async function resumes({ url, tokens, connectAs, siteUrl }) {
  const alice = await connectAs(url, tokens.alice);
  const bob = await connectAs(url, tokens.bob);
  const stop = new AbortController();
  try {
    const aliceLast = await crawlWithProgress(url, tokens.alice, alice, siteUrl, 60, stop.signal);
    const statuses = {};
    let open = 0;
    for (let i = 0; i < RESUMES; i++) {
      const r = await resumeGet(url, tokens.alice, alice, aliceLast, stop.signal);
      statuses[r.status] = (statuses[r.status] ?? 0) + 1;
      if (r.status === 200) open++;
      else await r.text();
    }
    // Bob resumes his own crawl mid-way: its answer comes only through a blocking reader.
    const bobLast = await crawlWithProgress(url, tokens.bob, bob, siteUrl, 3, stop.signal);
    const theirs = await resumeGet(url, tokens.bob, bob, bobLast, stop.signal);
    const body = theirs.status === 200 ? theirs.text() : Promise.resolve(`HTTP ${theirs.status}`);
    const read = await Promise.race([body, sleep(60_000).then(() => "")]);
    const bobSaw = /"result"/.test(read) ? "answer delivered" : `no answer (${read.slice(0, 60) || "empty"})`;
    return { open, refused: RESUMES - open, statuses, bob: bobSaw };
  } finally {
    stop.abort();
    await alice.close().catch(() => {});
    await bob.close().catch(() => {});
  }
}
