// The attacker's run of issue 23 as figures (`node bench/run.mjs attack`): the team deployment the
// README recommends — one replica of the built server behind nginx on Redis (scripts/fleet.mjs),
// OAuth against an authorization server of the bench's own (bench/issuer.mjs), one shared upstream
// key, the sandbox in its own process — and users who each hold only their own access token:
// - cross-user reads: bob asks for alice's work by id, in every listing and by MCP task id (with
//   the same reads on the build of 05fa029, the main before issue 23: bench/baseline.mjs builds it
//   once, or BENCH_BASELINE_CLI names one);
// - 216 × 20 MB pages through extract_page: the replica's RSS and Redis's memory;
// - 300 connect/close cycles without DELETE, then a new client of the same user;
// - 1,000 initializes with one token, against the global session cap;
// - another user's call alone and under a 50-task burst (median and p95);
// - the worst agent `pattern` time (the parameter compiler, in this process);
// - issue 30's short-call flood and per-user caps, beside a40b9cd's build (bench/attack-caps.mjs);
// - issue 30's other findings (jobs, runs, artifacts, generations, research, templates, SERP
//   batches; JSON-RPC batches, deep arguments, the static token's lookalike), beside a40b9cd's
//   build on a deployment with every toolset (bench/attack-findings.mjs).
// BENCH_ATTACK_PARTS=caps,burst (say) runs only those parts (crossUser, abandoned, oneToken,
// burst, largePages, caps, findings, pattern).
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { startFleet } from "../scripts/fleet.mjs";
import { capRows } from "./attack-caps.mjs";
import { findingRows } from "./attack-findings.mjs";
import { patternRows } from "./attack-pattern.mjs";
import { baselineCli } from "./baseline.mjs";
import { startIssuer } from "./issuer.mjs";
import { redisUsedMb, rssMb } from "./memory.mjs";
import { startSandboxProcess } from "./sandbox-process.mjs";

const KEY = "wdk_benchATTACKQZXJVK";
/** The main before issue 23's work: the cross-user reads are run on its build too. */
const BEFORE_ISSUE_23 = "05fa029";
/** The main before issue 30's work: the short-call flood and the per-user caps are run on its build too. */
const BEFORE_ISSUE_30 = "a40b9cd";
const PARTS = process.env.BENCH_ATTACK_PARTS?.split(",").map((p) => p.trim());
const wanted = (name) => !PARTS || PARTS.includes(name);
const PAGES = Number(process.env.BENCH_ATTACK_PAGES ?? 216);
const CYCLES = 300;
const INITIALIZES = 1_000;
const BURST = 50;
const PROBES = 15;

const round = (n, d = 1) => Math.round(n * 10 ** d) / 10 ** d;
const q = (sorted, p) => sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))];

export async function run() {
  const sandbox = await startSandboxProcess({ key: KEY, options: { crawlPageMs: 1_000 } });
  const issuer = await startIssuer();
  try {
    const rows = [];
    if (wanted("findings")) {
      const before = baselineCli(BEFORE_ISSUE_30);
      rows.push(...(await findingRows({ key: KEY, issuer, fleetEnv, before, connectAs })));
    }
    const parts = [crossUser, abandoned, oneToken, burst, largePages].filter((part) => wanted(part.name));
    if (parts.length === 0 && !wanted("caps"))
      return wanted("pattern") ? [...rows, ...(await patternRows())] : rows;
    const fleet = await startFleet({ replicas: 1, env: fleetEnv(sandbox, issuer) });
    try {
      const tokens = {};
      for (const who of ["alice", "bob", "carol", "mallory", "ops"])
        tokens[who] = await issuer.token(who, fleet.url);
      const baseline = (part) => onBaseline(baselineCli(BEFORE_ISSUE_23), sandbox, issuer, part);
      const target = {
        url: fleet.url,
        siteUrl: sandbox.siteUrl,
        sandboxUrl: sandbox.url,
        tokens,
        fleet,
        baseline,
        connectAs,
      };
      for (const part of parts) rows.push(...(await part(target)));
      if (wanted("caps")) {
        const before30 = (part) => onBaseline(baselineCli(BEFORE_ISSUE_30), sandbox, issuer, part);
        rows.push(...(await capRows(target, before30)));
      }
      return wanted("pattern") ? [...rows, ...(await patternRows())] : rows;
    } finally {
      await fleet.stop();
    }
  } finally {
    await issuer.close();
    await sandbox.close();
  }
}

const fleetEnv = (sandbox, issuer) => ({
  WEBDATA_API_KEY: KEY,
  WEBDATA_BASE_URL: sandbox.url,
  WEBDATA_OAUTH_ISSUER: issuer.issuer,
});

/** Runs `part` against the same deployment of the build before issue 23 (`bench/baseline.mjs`). */
async function onBaseline({ cli, label }, sandbox, issuer, part) {
  const fleet = await startFleet({ cli, replicas: 1, env: fleetEnv(sandbox, issuer) });
  try {
    const tokens = {};
    for (const who of ["alice", "bob"]) tokens[who] = await issuer.token(who, fleet.url);
    return { label, ...(await part({ url: fleet.url, siteUrl: sandbox.siteUrl, tokens, fleet })) };
  } finally {
    await fleet.stop();
  }
}

async function connectAs(url, token) {
  const client = new Client({ name: "bench-attack", version: "1" });
  const transport = new StreamableHTTPClientTransport(new URL(url), {
    requestInit: { headers: { authorization: `Bearer ${token}` } },
  });
  await client.connect(transport);
  const call = (name, args) => client.callTool({ name, arguments: args }, undefined, { timeout: 300_000 });
  return { client, transport, call, close: () => transport.terminateSession().then(() => client.close()) };
}

/** The global session count, as the operator reads it (an authenticated /healthz). */
async function sessions({ url, tokens }) {
  const res = await fetch(url.replace(/\/mcp$/, "/healthz"), {
    headers: { authorization: `Bearer ${tokens.ops}` },
  });
  return (await res.json()).sessions;
}

const text = (r) => (r.content ?? []).map((c) => c.text ?? "").join("\n");
const refused = (promise) =>
  promise.then(
    (r) => r.isError === true,
    () => true,
  );

/** Alice's reads of her own work, and bob's of hers, each true when it held (own: answered; bob's: refused). */
async function crossUserChecks({ url, siteUrl, tokens }) {
  const alice = await connectAs(url, tokens.alice);
  const bob = await connectAs(url, tokens.bob);
  try {
    const page = await alice.call("extract_page", { url: `${siteUrl}/`, max_chars: 200 });
    const id = page.structuredContent?.task_id;
    const { CreateTaskResultSchema, GetTaskResultSchema, ListTasksResultSchema, CallToolResultSchema } =
      await import("@modelcontextprotocol/sdk/types.js");
    const created = await alice.client.request(
      {
        method: "tools/call",
        params: {
          name: "extract_page",
          arguments: { url: `${siteUrl}/`, max_chars: 200 },
          task: { ttl: 120_000 },
        },
      },
      CreateTaskResultSchema,
    );
    const taskId = created.task.taskId;
    const listed = (r) => (r.structuredContent?.tasks ?? []).some((t) => t.task_id === id);
    const own = [
      !(await alice.call("get_task", { task_id: id })).isError,
      listed(await alice.call("get_task", { limit: 100 })),
      (await alice.client.request({ method: "tasks/get", params: { taskId } }, GetTaskResultSchema))
        .taskId === taskId,
    ];
    const unknownId = "00000000-0000-4000-a000-0000000000ff";
    const stolen = await bob.call("get_task", { task_id: id });
    const unknown = await bob.call("get_task", { task_id: unknownId });
    const bobTasks = await bob.client
      .request({ method: "tasks/list", params: {} }, ListTasksResultSchema)
      .catch(() => ({ tasks: [] }));
    const checks = {
      "get_task by id (same answer as an unknown id)":
        stolen.isError === true &&
        text(stolen).replaceAll(id, "?") === text(unknown).replaceAll(unknownId, "?"),
      "get_task listing": !listed(await bob.call("get_task", { limit: 100 })),
      "tasks/get": await refused(
        bob.client.request({ method: "tasks/get", params: { taskId } }, GetTaskResultSchema),
      ),
      "tasks/result": await refused(
        bob.client.request({ method: "tasks/result", params: { taskId } }, CallToolResultSchema),
      ),
      "tasks/list": !bobTasks.tasks.some((t) => t.taskId === taskId),
      "tasks/cancel": await refused(
        bob.client.request({ method: "tasks/cancel", params: { taskId } }, GetTaskResultSchema),
      ),
    };
    return { checks, own };
  } finally {
    await alice.close();
    await bob.close();
  }
}

/** The reads another user got through, by name ("none" when all were refused). */
const readThrough = (checks) =>
  Object.entries(checks)
    .filter(([, held]) => !held)
    .map(([name]) => name)
    .join(", ") || "none";

async function crossUser(target) {
  const { checks, own } = await crossUserChecks(target);
  const held = Object.values(checks).filter(Boolean).length;
  const total = Object.keys(checks).length;
  const before = await target.baseline((old) => crossUserChecks(old));
  const beforeText = `before (${before.label}): alice's own ${before.own.filter(Boolean).length} of ${before.own.length} answered, another user's ${Object.values(before.checks).filter(Boolean).length} of ${total} refused; read through: ${readThrough(before.checks)}`;
  return [
    {
      metric: `another user's reads of alice's work refused: ${Object.keys(checks).join(", ")}`,
      value: `${held} of ${total}`,
      unit: "",
      compare: `alice's own reads answered: ${own.filter(Boolean).length} of ${own.length}; read through now: ${readThrough(checks)}; ${beforeText}`,
      target: "all refused, the owner's all answered",
      ok: held === total && own.every(Boolean),
    },
  ];
}

async function abandoned(target) {
  const { url, tokens } = target;
  const before = await sessions(target);
  let failures = 0;
  for (let i = 0; i < CYCLES; i++) {
    const client = new Client({ name: "bench-abandon", version: "1" });
    const transport = new StreamableHTTPClientTransport(new URL(url), {
      requestInit: { headers: { authorization: `Bearer ${tokens.carol}` } },
    });
    await client.connect(transport).catch(() => failures++);
    await client.close(); // no DELETE: what ordinary SDK clients do
  }
  const held = (await sessions(target)) - before;
  const started = performance.now();
  const fresh = await connectAs(url, tokens.carol).catch((error) => error);
  const ms = performance.now() - started;
  const connected = !(fresh instanceof Error);
  if (connected) await fresh.close();
  return [
    {
      metric: `a new client after ${CYCLES} connect/close cycles without DELETE (same user): connect time`,
      value: connected ? round(ms) : `refused: ${fresh.message.slice(0, 80)}`,
      unit: connected ? "ms" : "",
      compare: `${failures} of ${CYCLES} cycles refused; sessions the user holds: ${held} (its cap evicts the least recently used); before: 429 for up to 30 min after ~100 cycles`,
      target: "connects at once, no cycle refused",
      ok: connected && failures === 0,
    },
  ];
}

async function oneToken(target) {
  const before = await sessions(target);
  const body = JSON.stringify({
    jsonrpc: "2.0",
    id: 1,
    method: "initialize",
    params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "flood", version: "1" } },
  });
  const statuses = {};
  const started = performance.now();
  for (let i = 0; i < INITIALIZES; i++) {
    const res = await fetch(target.url, {
      method: "POST",
      headers: {
        authorization: `Bearer ${target.tokens.mallory}`,
        "content-type": "application/json",
        accept: "application/json, text/event-stream",
      },
      body,
    });
    await res.text();
    statuses[res.status] = (statuses[res.status] ?? 0) + 1;
  }
  const seconds = (performance.now() - started) / 1000;
  const held = (await sessions(target)) - before;
  return [
    {
      metric: `sessions one token holds after ${INITIALIZES} initializes in ${round(seconds)} s`,
      value: held,
      unit: "",
      compare: `global cap 10,000; answers ${JSON.stringify(statuses)}; before: one token filled the global cap in 33 s`,
      target: "≤ 100 (the per-principal cap)",
      ok: held <= 100,
    },
  ];
}

async function burst({ url, siteUrl, tokens }) {
  const { CreateTaskResultSchema } = await import("@modelcontextprotocol/sdk/types.js");
  const alice = await connectAs(url, tokens.alice);
  const bob = await connectAs(url, tokens.bob);
  const probe = async () => {
    const ms = [];
    for (let i = 0; i < PROBES; i++) {
      const started = performance.now();
      const r = await bob.call("extract_page", { url: `${siteUrl}/`, max_chars: 300 });
      if (r.isError) throw new Error(`bob's call failed: ${text(r).slice(0, 200)}`);
      ms.push(performance.now() - started);
    }
    return ms.sort((a, b) => a - b);
  };
  try {
    const alone = await probe();
    const crawl = { name: "crawl_site", arguments: { url: `${siteUrl}/`, limit: 60, max_chars: 500 } };
    const tasks = await Promise.all(
      Array.from({ length: BURST }, () =>
        alice.client.request(
          { method: "tools/call", params: { ...crawl, task: { ttl: 300_000 } } },
          CreateTaskResultSchema,
        ),
      ),
    );
    const under = await probe();
    await Promise.all(
      tasks.map((t) =>
        alice.client
          .request(
            { method: "tasks/cancel", params: { taskId: t.task.taskId } },
            CreateTaskResultSchema.pick({}),
          )
          .catch(() => {}),
      ),
    );
    const [m0, p0, m1, p1] = [q(alone, 0.5), q(alone, 0.95), q(under, 0.5), q(under, 0.95)].map((n) =>
      round(n, 0),
    );
    return [
      {
        metric: `another user's extract_page while one user runs ${BURST} crawl tasks: median / p95 (${PROBES} calls)`,
        value: `${m1} / ${p1}`,
        unit: "ms",
        compare: `alone ${m0} / ${p0} ms; before: 14 ms alone → 3.6 s under the burst`,
        target: "median ≤ alone + 100 ms",
        ok: m1 <= m0 + 100,
      },
    ];
  } finally {
    await alice.close();
    await bob.close();
  }
}

async function largePages({ url, siteUrl, tokens, fleet }) {
  const pid = fleet.replicas[0].child.pid;
  const mallory = await connectAs(url, tokens.mallory);
  try {
    const [rss0, redis0] = [rssMb(pid), await redisUsedMb(fleet.redisUrl)];
    let peak = rss0;
    const sampler = setInterval(() => {
      peak = Math.max(peak, rssMb(pid));
    }, 100);
    let next = 0;
    let errors = 0;
    let firstError = "";
    const started = performance.now();
    await Promise.all(
      Array.from({ length: 8 }, async () => {
        while (next < PAGES) {
          next++;
          const r = await mallory
            .call("extract_page", { url: `${siteUrl}/large?mb=20`, max_chars: 40_000 })
            .catch((error) => ({ isError: true, content: [{ text: String(error?.message ?? error) }] }));
          if (r.isError) {
            errors++;
            firstError ||= text(r).slice(0, 120);
          }
        }
      }),
    );
    clearInterval(sampler);
    const seconds = (performance.now() - started) / 1000;
    const [rss1, redis1] = [rssMb(pid), await redisUsedMb(fleet.redisUrl)];
    return [
      {
        metric: `replica RSS after ${PAGES} × 20 MB pages through extract_page (8 at once, ${round(seconds)} s)`,
        value: round(rss1),
        unit: "MB",
        compare: `before the pages ${round(rss0)} MB, peak ${round(peak)} MB; ${errors} calls failed${firstError ? ` (first: ${firstError})` : ""}; before: every page kept whole 10 min (memory exhausted)`,
        target: "peak ≤ before + 400 MB, no call failed",
        ok: peak <= rss0 + 400 && errors === 0,
      },
      {
        metric: `Redis used_memory after the ${PAGES} pages`,
        value: round(redis1, 2),
        unit: "MB",
        compare: `before the pages ${round(redis0, 2)} MB (events kept per session ≤ 4 MiB, each ≤ 256 KiB)`,
        target: "≤ before + 5 MB",
        ok: redis1 <= redis0 + 5,
      },
    ];
  } finally {
    await mallory.close();
  }
}
