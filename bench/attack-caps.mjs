// Issue 30's attacker, items 2–3, as figures for `node bench/run.mjs attack`: on the same deployment
// as bench/attack.mjs (one replica behind nginx on Redis, OAuth, one shared key), now and on the
// build of a40b9cd (main before issue 30), in the same run:
// - bob's serp_search alone and while alice keeps 600 serp_search calls in flight (a refused call
//   waits the retry_after it was given, as a client should), median and p95;
// - what alice sees of her flood (answered, refused, and the refusal's words);
// - 600 MCP task records asked by alice (bad arguments, 24 h TTL): created, refused, Redis growth,
//   and whether bob's task is created meanwhile;
// - 70 resumed streams opened by alice on one of her calls: open, refused; whether bob's resume of
//   his own call still delivers its answer.
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
      compare: `refusal: "${now.first.refusal}"; ${before.label}: ${before.first.answered} answered, ${before.first.refused} refused, her last answer after ${round(before.first.lastMs / 1000, 1)} s (now ${round(now.first.lastMs / 1000, 1)} s)`,
      target: "at most 16 running + 100 waiting; the rest refused naming the limit",
      ok: now.first.answered <= 116 + 16 && now.first.refused > 0,
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

/** Bob's probes alone, then while alice's workers keep FLOOD calls in flight. */
async function shortFlood({ url, tokens, connectAs }) {
  const alice = await connectAs(url, tokens.alice);
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
    let stop = false;
    const first = { answered: 0, refused: 0, refusal: "", lastMs: 0 };
    const started = performance.now();
    const worker = async (i) => {
      for (let round = 0; !stop || round === 0; round++) {
        const r = await alice
          .call("serp_search", search(`flood ${i}`))
          .catch((error) => ({ isError: true, content: [{ text: String(error?.message ?? error) }] }));
        if (round === 0) {
          first.lastMs = Math.max(first.lastMs, performance.now() - started);
          if (r.isError) {
            first.refused++;
            first.refusal ||= text(r).slice(0, 160);
          } else first.answered++;
        }
        const retry = r._meta?.["web-data/error"]?.retry_after;
        if (r.isError && !stop) await sleep((retry ?? 1) * 1000);
      }
    };
    const workers = Array.from({ length: FLOOD }, (_, i) => worker(i));
    await sleep(500); // the flood is in before bob's first probe
    const during = await probe();
    stop = true;
    await Promise.all(workers);
    return { alone, during, first };
  } finally {
    await alice.close();
    await bob.close();
  }
}

async function redisUsedMb(redisUrl) {
  const { Redis } = await import("ioredis");
  const redis = new Redis(redisUrl);
  try {
    return Number(/used_memory:(\d+)/.exec(await redis.info("memory"))[1]) / 1024 / 1024;
  } finally {
    redis.disconnect();
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

/** The sandbox's faults, over its control endpoint (the sandbox runs in its own process). */
const faults = {
  hold: (sandboxUrl) =>
    fetch(`${sandboxUrl}/_sandbox/faults`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ kind: "latency", ms: 600_000, match: "POST /v2/serp" }),
    }).then((r) => r.text()),
  clear: (sandboxUrl) => fetch(`${sandboxUrl}/_sandbox/faults`, { method: "DELETE" }).then((r) => r.text()),
};

/** A call held upstream on `c`'s session: its POST stream's priming event id. */
async function heldCall(url, token, c, signal) {
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
      params: { name: "serp_search", arguments: search("held") },
    }),
  });
  const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
  let head = "";
  while (!/^id: ?(\S+)$/m.test(head)) head += (await reader.read()).value ?? "";
  return /^id: ?(\S+)$/m.exec(head)[1];
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

async function resumes({ url, tokens, connectAs, sandboxUrl }) {
  const alice = await connectAs(url, tokens.alice);
  const bob = await connectAs(url, tokens.bob);
  const stop = new AbortController();
  await faults.hold(sandboxUrl);
  try {
    const aliceLast = await heldCall(url, tokens.alice, alice, stop.signal);
    const statuses = {};
    let open = 0;
    for (let i = 0; i < RESUMES; i++) {
      const r = await resumeGet(url, tokens.alice, alice, aliceLast, stop.signal);
      statuses[r.status] = (statuses[r.status] ?? 0) + 1;
      if (r.status === 200) open++;
      else await r.text();
    }
    const bobLast = await heldCall(url, tokens.bob, bob, stop.signal);
    const theirs = await resumeGet(url, tokens.bob, bob, bobLast, stop.signal);
    const body = theirs.status === 200 ? theirs.text() : Promise.resolve(`HTTP ${theirs.status}`);
    await sleep(300);
    await faults.clear(sandboxUrl);
    const read = await Promise.race([body, sleep(30_000).then(() => "")]);
    const bobSaw = /"result"/.test(read) ? "answer delivered" : `no answer (${read.slice(0, 60) || "empty"})`;
    return { open, refused: RESUMES - open, statuses, bob: bobSaw };
  } finally {
    stop.abort();
    await faults.clear(sandboxUrl);
    await alice.close().catch(() => {});
    await bob.close().catch(() => {});
  }
}
