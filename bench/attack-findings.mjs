// Issue 30's other findings as figures for `node bench/run.mjs attack` (BENCH_ATTACK_PARTS=findings):
// on a deployment like the issue's — one replica behind nginx on Redis, OAuth (bench/issuer.mjs),
// one shared key, every toolset — now and on a40b9cd's build, in the same run. Alice makes one of
// each kind of work through the tools; bob, holding only his own token, attacks it by id and in
// listings (a few calls per row); each row counts what bob got (answered or refused) and what
// alice's own call got. Then the low findings: a JSON-RPC batch of 100 calls in one POST of a
// 2025-11-25 session, arguments nested 100,000 levels deep, and an OAuth user whose `sub` is the
// static token's label using a second token of theirs. The sandbox is its own process here, with
// a task latency that keeps a job run active for a few seconds (bob's cancel must find it running).
import { startFleet } from "../scripts/fleet.mjs";
import { startSandboxProcess } from "./sandbox-process.mjs";

/** The label a40b9cd gave the static token's subject (src/server/http/auth.ts STATIC_TOKEN_SUBJECT). */
const STATIC_TOKEN_SUBJECT = "webdata-http-token";
const BATCH = 100;
const DEPTH = 100_000;
/** Each job run is active 8 of these (src/sandbox/lifecycle/job-store.ts), a research run 4. */
const TASK_LATENCY_MS = 600;
const REVISION = "2025-11-25";

const text = (r) => (r?.content ?? []).map((c) => c.text ?? "").join("\n");
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
/** "answered" or "refused: <first words>" for a tool result. */
const outcome = (r) => (r.isError ? `refused ("${text(r).split("\n")[0].slice(0, 90)}")` : "answered");
const answered = (r) => !r.isError;

/**
 * The rows: each finding, a40b9cd (`before`: bench/baseline.mjs's `{cli, label}`) beside now,
 * each build started in turn on the same deployment (`fleetEnv(sandbox, issuer)` plus every
 * toolset) against one sandbox of this part's own.
 */
export async function findingRows({ key, issuer, fleetEnv, before, connectAs }) {
  const sandbox = await startSandboxProcess({ key, options: { taskLatencyMs: TASK_LATENCY_MS } });
  try {
    const on = async (cli, tag) => {
      const fleet = await startFleet({
        ...(cli ? { cli } : {}),
        replicas: 1,
        env: { ...fleetEnv(sandbox, issuer), WEBDATA_TOOLSETS: "all" },
      });
      try {
        const tokens = {};
        for (const who of ["alice", "bob"]) tokens[who] = await issuer.token(who, fleet.url);
        const target = { url: fleet.url, siteUrl: sandbox.siteUrl, tokens, connectAs, issuer, tag };
        return {
          ...(await crossUser(target)),
          batch: await batch(target),
          depth: await depth(target),
          lookalike: await lookalike(target),
        };
      } finally {
        await fleet.stop();
      }
    };
    const now = await on(undefined, "now");
    const old = await on(before.cli, "old");
    return rows(now, old, before.label);
  } finally {
    await sandbox.close();
  }
}

function rows(now, old, label) {
  const out = [];
  for (const [name, row] of Object.entries(now.attacks)) {
    const was = old.attacks[name];
    out.push({
      metric: `${row.finding}: ${row.attack}`,
      value: row.bob,
      unit: "",
      compare: row.cross
        ? `${label}: ${was.bob}; alice's own now: ${row.alice}, ${label}: ${was.alice}`
        : `${label}: ${was.bob}`,
      target: row.target,
      ok: row.ok,
    });
  }
  const held = (r) => Object.values(r.attacks).filter((a) => a.cross && a.ok).length;
  const cross = Object.values(now.attacks).filter((a) => a.cross).length;
  const oldHeld = Object.values(old.attacks).filter((a) => a.cross && a.ok).length;
  out.push({
    metric:
      "cross-user attacks above refused (bob on alice's jobs, runs, artifacts, generations, research, templates)",
    value: `${held(now)} of ${cross}`,
    unit: "",
    compare: `${label}: ${oldHeld} of ${cross}`,
    target: "all",
    ok: held(now) === cross,
  });
  out.push(
    {
      metric: `a JSON-RPC batch of ${BATCH} tools/call in one POST (${REVISION} session)`,
      value: now.batch.summary,
      unit: "",
      compare: `${label}: ${old.batch.summary}`,
      target: "refused with -32600, no call run",
      ok: now.batch.calls === 0 && now.batch.code === -32600,
    },
    {
      metric: `a tool call whose arguments nest ${DEPTH.toLocaleString("en")} levels deep`,
      value: now.depth.summary,
      unit: "",
      compare: `${label}: ${old.depth.summary}`,
      target: "invalid_argument, still serving",
      ok: now.depth.kind === "invalid_argument" && now.depth.serving,
    },
    {
      metric: `an OAuth user whose sub is "${STATIC_TOKEN_SUBJECT}" with a second token of theirs: its session, an MCP task there, get_task`,
      value: now.lookalike.summary,
      unit: "",
      compare: `${label}: ${old.lookalike.summary}`,
      target: "one user: all answered",
      ok: now.lookalike.ok,
    },
  );
  return out;
}

/** Alice makes one of each; bob attacks each (reads and listings first, changes and deletes last). */
async function crossUser({ url, siteUrl, tokens, connectAs, tag }) {
  const alice = await connectAs(url, tokens.alice);
  const bob = await connectAs(url, tokens.bob);
  try {
    const made = {};
    const serp = await alice.call("serp_search", {
      search_engine: "engine1_search",
      queries: ["tent", "stove"],
    });
    const generation = await alice.call("generate_template", {
      prompt: "Extract the title and price",
      url: `${siteUrl}/`,
      name: `alice_products_${tag}`,
    });
    made.generation = generation.structuredContent?.generation_id;
    made.template = generation.structuredContent?.template ?? `alice_products_${tag}`;
    const job = await alice.call("manage_job", {
      action: "create",
      name: `alice-job-${tag}`,
      extract_template_name: made.template,
    });
    made.job = job.structuredContent?.job_id;
    made.run = (
      await alice.call("manage_job", { action: "trigger", job_id: made.job })
    ).structuredContent?.run_id;
    const agent = await alice.call("manage_research_agent", {
      action: "create",
      template: "market_research",
      agent_name: `alice_agent_${tag}`,
    });
    made.agent = agent.structuredContent?.agent_id;
    made.research = (
      await alice.call("research", { agent_id: made.agent, input: "Which tents suit winter?" })
    ).structuredContent?.run_id;
    const missing = Object.entries(made).filter(([, id]) => !id);
    if (missing.length > 0)
      throw new Error(`alice could not make: ${missing.map(([k]) => k).join(", ")} (${tag})`);
    // The run's artifact exists once it ended (8 task latencies).
    let artifact;
    for (let i = 0; i < 40 && !artifact; i++) {
      const r = await alice.call("job_runs", { run_id: made.run });
      artifact = r.structuredContent?.artifacts?.[0]?.id;
      if (!artifact) await sleep(TASK_LATENCY_MS);
    }
    made.artifact = artifact ?? `${made.run.slice(0, 8)}-results`;

    const attacks = {};
    /** Bob's call on alice's id, refused is held; alice's same call, answered is held. */
    const byId = async (name, finding, attack, tool, args, aliceToo = true) => {
      const theirs = await bob.call(tool, args);
      const mine = aliceToo ? await alice.call(tool, args) : undefined;
      attacks[name] = {
        finding,
        attack,
        cross: true,
        bob: outcome(theirs),
        alice: mine ? outcome(mine) : "—",
        target: "bob refused, alice answered",
        ok: !answered(theirs) && (!mine || answered(mine)),
      };
    };
    const listing = async (name, finding, attack, tool, args, id) => {
      const theirs = await bob.call(tool, args);
      const mine = await alice.call(tool, args);
      const shows = (r) => JSON.stringify(r.structuredContent ?? text(r)).includes(id);
      attacks[name] = {
        finding,
        attack,
        cross: true,
        bob: theirs.isError ? outcome(theirs) : shows(theirs) ? "lists alice's" : "not listed",
        alice: shows(mine) ? "listed" : outcome(mine),
        target: "not listed for bob, listed for alice",
        ok: !theirs.isError && !shows(theirs) && shows(mine),
      };
    };
    attacks.serp = {
      finding: "SERP batch",
      attack: "alice's own `serp_search {queries}`",
      cross: false,
      bob: outcome(serp),
      alice: outcome(serp),
      target: "answered",
      ok: answered(serp),
    };
    await listing("jobList", "job", "bob's `job_runs {}` (listing)", "job_runs", {}, made.job);
    await byId("jobRuns", "job", "bob's `job_runs {job_id}` (its runs)", "job_runs", { job_id: made.job });
    await byId("run", "job run", "bob's `job_runs {run_id}` (run and artifact rows)", "job_runs", {
      run_id: made.run,
    });
    await byId("artifact", "artifact", "bob's `job_runs {run_id, artifact_id}` (download URL)", "job_runs", {
      run_id: made.run,
      artifact_id: made.artifact,
    });
    await byId("research", "research run", "bob's `research {agent_id, run_id}` (resume)", "research", {
      agent_id: made.agent,
      run_id: made.research,
    });
    await byId(
      "generation",
      "template generation",
      "bob's `generate_template {generation_id}` (resume)",
      "generate_template",
      { generation_id: made.generation },
    );
    await listing(
      "agents",
      "research agent",
      "bob's `list_research_agents {}` (listing)",
      "list_research_agents",
      {},
      made.agent,
    );
    await byId("template", "template", "bob's `manage_template {action: update}`", "manage_template", {
      action: "update",
      template: made.template,
      patch: [{ op: "replace", path: "/display_name", value: "bob's" }],
    });
    // A fresh run to cancel while it is active; then what alice reads of it.
    const live = (await alice.call("manage_job", { action: "trigger", job_id: made.job })).structuredContent
      ?.run_id;
    const cancel = await bob.call("cancel", { run_id: live });
    const after = (await alice.call("job_runs", { run_id: live })).structuredContent?.run?.status ?? "unread";
    attacks.cancel = {
      finding: "job run",
      attack: "bob's `cancel {run_id}` of alice's running run",
      cross: true,
      bob: outcome(cancel),
      alice: `her run then reads ${after}`,
      target: "bob refused, alice's run not cancelled",
      ok: !answered(cancel) && after !== "CANCELLED",
    };
    const deleted = async (name, finding, attack, tool, args, stillThere) => {
      const theirs = await bob.call(tool, args);
      const mine = await stillThere();
      attacks[name] = {
        finding,
        attack,
        cross: true,
        bob: outcome(theirs),
        alice: mine ? "hers still there" : "hers gone (deleted or deactivated)",
        target: "bob refused, alice's still there",
        ok: !answered(theirs) && mine,
      };
    };
    await deleted(
      "agentDelete",
      "research agent",
      "bob's `manage_research_agent {action: delete}`",
      "manage_research_agent",
      { action: "delete", agent_id: made.agent },
      // The delete is soft: the agent stays readable, deactivated.
      async () => {
        const r = await alice.call("list_research_agents", { agent_id: made.agent });
        return answered(r) && r.structuredContent?.agent?.is_active !== false;
      },
    );
    await deleted(
      "jobDelete",
      "job",
      "bob's `manage_job {action: delete}`",
      "manage_job",
      { action: "delete", job_id: made.job },
      async () => answered(await alice.call("job_runs", { job_id: made.job })),
    );
    return { attacks };
  } finally {
    await alice.close().catch(() => {});
    await bob.close().catch(() => {});
  }
}

/** A raw session of `revision` for `token`: `post(body | text)` → `{status, messages}`. */
async function rawSession(url, token, revision = REVISION) {
  const headers = {
    authorization: `Bearer ${token}`,
    "content-type": "application/json",
    accept: "application/json, text/event-stream",
  };
  const opened = await fetch(url, {
    method: "POST",
    headers,
    body: JSON.stringify({
      jsonrpc: "2.0",
      id: 1,
      method: "initialize",
      params: {
        protocolVersion: revision,
        capabilities: {},
        clientInfo: { name: "bench-raw", version: "1" },
      },
    }),
  });
  await opened.text();
  const session = opened.headers.get("mcp-session-id");
  const inSession = { ...headers, "mcp-session-id": session, "mcp-protocol-version": revision };
  const post = async (body, as = inSession) => {
    const res = await fetch(url, {
      method: "POST",
      headers: as,
      body: typeof body === "string" ? body : JSON.stringify(body),
    });
    return { status: res.status, messages: messagesOf(await res.text()) };
  };
  await post({ jsonrpc: "2.0", method: "notifications/initialized" });
  return { session, post, headers: inSession };
}

/** Every JSON-RPC message of an answer, as JSON or as SSE events. */
function messagesOf(body) {
  const data = body.split("\n").filter((l) => l.startsWith("data:") && l.slice(5).trim().startsWith("{"));
  try {
    const parsed = data.length > 0 ? data.map((l) => JSON.parse(l.slice(5))) : JSON.parse(body || "[]");
    return (Array.isArray(parsed) ? parsed : [parsed]).flat();
  } catch {
    return [];
  }
}

async function batch({ url, tokens }) {
  const { post } = await rawSession(url, tokens.alice);
  const calls = Array.from({ length: BATCH }, (_, i) => ({
    jsonrpc: "2.0",
    id: 100 + i,
    method: "tools/call",
    params: { name: "list_agents", arguments: {} },
  }));
  const answer = await post(calls);
  const results = answer.messages.filter((m) => m.result && !m.result.isError).length;
  const error = answer.messages.find((m) => m.error)?.error;
  const summary =
    results > 0
      ? `HTTP ${answer.status}: ${results} of ${BATCH} calls run and answered`
      : `HTTP ${answer.status}: ${error ? `${error.code} "${error.message.slice(0, 110)}"` : "no answer"}; 0 calls run`;
  return { calls: results, code: error?.code, summary };
}

async function depth({ url, tokens }) {
  const { post } = await rawSession(url, tokens.alice);
  const objects = `${'{"a":'.repeat(DEPTH)}1${"}".repeat(DEPTH)}`;
  const body = `{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"serp_search","arguments":{"search_engine":"engine1_search","query":${objects}}}}`;
  const answer = await post(body);
  const reply = answer.messages.find((m) => m.id === 7);
  const serving = (await post({ jsonrpc: "2.0", id: 8, method: "ping" })).status === 200;
  const kind = reply?.error
    ? `JSON-RPC ${reply.error.code}`
    : (reply?.result?._meta?.["web-data/error"]?.code ?? (reply?.result?.isError ? "isError" : "answered"));
  const said = reply?.error?.message ?? reply?.result?.content?.[0]?.text ?? `HTTP ${answer.status}`;
  const words = said.replace(/\s+/g, " ").slice(0, 130);
  return { kind, serving, summary: `${kind} "${words}"; a ping after it ${serving ? "answered" : "failed"}` };
}

/**
 * An OAuth user named like the static token: a task and an MCP task made with one token, then a
 * second token (another JWT of the same subject) on that session and on both tasks.
 */
async function lookalike({ url, siteUrl, issuer, connectAs }) {
  const first = await issuer.token(STATIC_TOKEN_SUBJECT, url);
  let second = first;
  // A token is signed per second (iat): wait for a distinct one.
  while (second === first) {
    await sleep(250);
    second = await issuer.token(STATIC_TOKEN_SUBJECT, url);
  }
  const one = await connectAs(url, first);
  try {
    const page = await one.call("extract_page", { url: `${siteUrl}/`, max_chars: 100 });
    const taskId = page.structuredContent?.task_id;
    const { CreateTaskResultSchema } = await import("@modelcontextprotocol/sdk/types.js");
    const mcpTask = await one.client.request(
      {
        method: "tools/call",
        params: {
          name: "extract_page",
          arguments: { url: `${siteUrl}/`, max_chars: 100 },
          task: { ttl: 60_000 },
        },
      },
      CreateTaskResultSchema,
    );
    // The second token on the first token's session: a ping, and a read of the MCP task made there.
    const onSession = (body) =>
      fetch(url, {
        method: "POST",
        headers: {
          authorization: `Bearer ${second}`,
          "mcp-session-id": one.transport.sessionId,
          "mcp-protocol-version": REVISION,
          "content-type": "application/json",
          accept: "application/json, text/event-stream",
        },
        body: JSON.stringify(body),
      });
    const ping = await onSession({ jsonrpc: "2.0", id: 9, method: "ping" });
    await ping.text();
    const two = await connectAs(url, second);
    try {
      const read = await two.call("get_task", { task_id: taskId });
      const task = await onSession({
        jsonrpc: "2.0",
        id: 10,
        method: "tasks/get",
        params: { taskId: mcpTask.task.taskId },
      });
      const taskReply = messagesOf(await task.text()).find((m) => m.id === 10);
      const taskRead = taskReply?.result
        ? "answered"
        : `refused (HTTP ${task.status}${taskReply?.error ? ` ${taskReply.error.code}` : ""})`;
      const session = ping.status === 200 ? "answered" : `HTTP ${ping.status}`;
      return {
        ok: ping.status === 200 && answered(read) && taskRead === "answered",
        summary: `own session ${session}; its MCP task (tasks/get there) ${taskRead}; own get_task ${outcome(read)}`,
      };
    } finally {
      await two.close().catch(() => {});
    }
  } finally {
    await one.close().catch(() => {});
  }
}
