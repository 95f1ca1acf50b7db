/**
 * `research`: a web research agent answers a question (§14): in one shot (`POST /v2/agents/runs`;
 * generation 1 creates an agent, then runs it), with an existing agent (`agent_id`) or a new agent
 * from an agent template (`template`). Progress comes from the run's event stream (runs are
 * created with `enable_events`), else from its status; the result route's 409 (generation 1: 408)
 * while the run is active means wait. Every creating POST is sent once.
 */
import { z } from "zod";
import { sleep } from "../api/abort.js";
import { ApiError } from "../api/errors.js";
import { EFFORTS, type ResearchResult, type ResearchRun } from "../api/schemas-v2.js";
import { joinId } from "../async/targets.js";
import { createOnce } from "./creation.js";
import { ToolError } from "./errors.js";
import { clip, longToolShape, maxCharsArg, pendingResult } from "./result.js";
import { defineTool, type ToolContext } from "./tool.js";

/** The pause before asking again for the result of a run that says it ended. */
const RESULT_RETRY_MS = 1_000;

const citation = () => z.object({ url: z.string(), title: z.string().optional() });

/** Follows the run's events: progress per event, and `ended` once the run says it ended. */
function followEvents(ctx: ToolContext, agent: string, run: string) {
  const stop = new AbortController();
  const onAbort = () => stop.abort();
  ctx.signal.addEventListener("abort", onAbort, { once: true });
  let announce: () => void = () => {};
  const ended = new Promise<void>((resolve) => {
    announce = resolve;
  });
  const done = (async () => {
    let step = 0;
    for await (const e of ctx.client.researchEvents(agent, run, stop.signal)) {
      const data = (typeof e.data === "object" && e.data !== null ? e.data : {}) as Record<string, unknown>;
      step = typeof data.step === "number" ? data.step : step + 1;
      const total = typeof data.total_steps === "number" ? data.total_steps : undefined;
      const message = typeof data.message === "string" ? data.message : e.event;
      await ctx.progress({ progress: step, total, message: `research ${run}: ${message}` });
      if (/completed|failed|cancel/.test(e.event)) announce();
    }
  })().catch(() => {});
  return {
    completion: { wait: (_id: string, signal: AbortSignal) => Promise.race([ended, aborted(signal)]) },
    close: async () => {
      stop.abort();
      ctx.signal.removeEventListener("abort", onAbort);
      await done;
    },
  };
}

const aborted = (signal: AbortSignal) =>
  new Promise<void>((_, reject) =>
    signal.addEventListener("abort", () => reject(signal.reason), { once: true }),
  );

async function start(args: Args, ctx: ToolContext): Promise<ResearchRun> {
  const body = {
    input: args.input as string,
    enable_events: true,
    origin: "api" as const,
    ...(args.effort ? { effort: args.effort } : {}),
    ...(args.output_schema ? { output_schema: args.output_schema } : {}),
  };
  // No tool lists an agent's runs: the check names the agent whose run list settles it.
  const check = (agent: string) =>
    `the run list of research agent ${agent} (GET …/agents/${agent}/runs; the agent: list_research_agents {"agent_id":"${agent}"})`;
  const newAgent = (template?: string) =>
    createOnce("research agent", "list_research_agents {} (a new agent at the top)", () =>
      ctx.client.createResearchAgent(template ? { template } : {}, { signal: ctx.signal }),
    );
  let agentId = args.agent_id;
  if (!agentId && args.template) agentId = (await newAgent(args.template)).id;
  // Generation 1 has no one-shot route: create the agent, then run it.
  if (!agentId && (ctx.config.apiGeneration === 1 || ctx.client.lacksGeneration2()))
    agentId = (await newAgent()).id;
  const id = agentId;
  if (id)
    return createOnce(
      "research run",
      check(id),
      () => ctx.client.startResearchRun(id, body, { signal: ctx.signal }),
      id,
    );
  try {
    return await createOnce(
      "research run",
      "list_research_agents {} (the one-shot run makes a new agent, at the top, whose runs hold it)",
      () => ctx.client.startOneShotResearch(body, { signal: ctx.signal }),
    );
  } catch (error) {
    // A service without generation 2 has no one-shot route (404/405: nothing was created).
    const missing = error instanceof ApiError && (error.status === 404 || error.status === 405);
    if (!missing || ctx.config.apiGeneration === 2) throw error;
  }
  const created = (await newAgent()).id;
  return createOnce(
    "research run",
    check(created),
    () => ctx.client.startResearchRun(created, body, { signal: ctx.signal }),
    created,
  );
}

interface Args {
  input?: string;
  agent_id?: string;
  template?: string;
  run_id?: string;
  effort?: (typeof EFFORTS)[number];
  output_schema?: Record<string, unknown>;
  max_chars: number;
}

async function resultOf(ctx: ToolContext, agent: string, run: string): Promise<ResearchResult | undefined> {
  try {
    return await ctx.client.getResearchResult(agent, run, { signal: ctx.signal });
  } catch (error) {
    // 409 (generation 1: 408): the run is still active, which is no failure.
    if (error instanceof ApiError && (error.status === 409 || error.status === 408)) return undefined;
    throw error;
  }
}

function answerResult(result: ResearchResult, agent: string, run: string, maxChars: number) {
  const output = result.output;
  const content =
    typeof output?.content === "string" ? output.content : JSON.stringify(output?.content ?? null, null, 2);
  const answer = clip(content, maxChars);
  const trust = output?.trust;
  const citations = new Map<string, { url: string; title?: string }>();
  for (const claim of trust?.claims ?? [])
    for (const c of claim.citations ?? [])
      citations.set(c.url, { url: c.url, ...(c.title ? { title: c.title } : {}) });
  for (const s of trust?.sources ?? [])
    if (!citations.has(s.url)) citations.set(s.url, { url: s.url, ...(s.title ? { title: s.title } : {}) });
  const cited = [...citations.values()];
  const structured = {
    status: "done" as const,
    state: result.run?.status ?? "completed",
    agent_id: agent,
    run_id: run,
    type: output?.type ?? "text",
    answer: answer.text,
    ...(answer.next_offset !== undefined ? { truncated: true } : {}),
    ...(trust?.confidence ? { confidence: trust.confidence } : {}),
    citations: cited,
  };
  const text = [
    `Research run ${run} (confidence: ${trust?.confidence ?? "not given"}):`,
    answer.text,
    "",
    "Sources:",
    ...cited.map((c, i) => `[${i + 1}] ${c.title ?? c.url} — ${c.url}`),
  ].join("\n");
  return { structured, text };
}

export const research = defineTool({
  name: "research",
  title: "Research a question",
  description:
    "A web research agent answers a question with cited sources and a confidence. Minutes-long and billed per run; for facts one search answers, use web_search (include_answer). Agents: list_research_agents.",
  toolset: "research",
  routes: [
    "startOneShotResearch",
    "createResearchAgent",
    "startResearchRun",
    "getResearchRun",
    "researchEvents",
    "getResearchResult",
  ],
  longRunning: true,
  examples: [{ input: "What tents suit winter camping?" }],
  input: () => ({
    input: z.string().min(1).max(10_000).optional().describe("The question or task"),
    agent_id: z.string().min(1).optional().describe("Run this agent (wsa_…)"),
    template: z.string().min(1).optional().describe("Make an agent from this agent template, then run it"),
    effort: z.enum(EFFORTS).optional().describe("Default: the agent's"),
    output_schema: z
      .record(z.string(), z.unknown())
      .optional()
      .describe("JSON schema of a structured answer"),
    run_id: z.string().min(1).optional().describe("Resume waiting for this run (with agent_id)"),
    max_chars: maxCharsArg(),
  }),
  output: () => ({
    ...longToolShape(),
    agent_id: z.string().optional(),
    run_id: z.string(),
    type: z.string().optional(),
    answer: z.string().optional(),
    truncated: z.boolean().optional(),
    confidence: z.string().optional(),
    citations: z.array(citation()).optional(),
  }),
  readOnly: false,
  async handler(args, ctx) {
    let agent = args.agent_id;
    let run = args.run_id;
    if (run && !agent)
      throw new ToolError("invalid_argument", ["agent_id: needed with run_id (the run's agent)"].join(" "));
    if (!run) {
      if (!args.input)
        throw new ToolError(
          "invalid_argument",
          ["input: the question (or run_id and agent_id to resume)"].join(" "),
        );
      if (args.agent_id && args.template)
        throw new ToolError("invalid_argument", ["agent_id, template: pass one"].join(" "));
      const started = await start(args, ctx);
      run = started.id;
      agent = started.web_search_agent_id ?? agent;
      if (!agent) throw new ToolError("invalid_response", `Run ${run} came back without its agent id.`);
      await ctx.progress({ progress: 0, message: `research ${run}: ${started.status}` });
    }
    const events = args.run_id ? undefined : followEvents(ctx, agent as string, run);
    try {
      for (;;) {
        const outcome = await ctx.wait(
          { kind: "research", id: joinId(agent as string, run) },
          events ? { completion: events.completion, quiet: true } : {},
        );
        if (outcome.status === "pending") return pendingResult(outcome, { agent_id: agent });
        if (outcome.status === "failed")
          throw new ToolError(
            "task_failed",
            `Research run ${run} ${outcome.state}: ${outcome.error ?? "no reason given"}.`,
            { id: run },
          );
        const result = await resultOf(ctx, agent as string, run);
        if (result) return answerResult(result, agent as string, run, args.max_chars);
        // The run says it ended but its result route says it is still active: the wait answers
        // "done" at once again, so ask after a pause, and hand back the handle at the deadline
        // (never a loop at the service's own speed, nor a pause that runs past the deadline).
        const left = ctx.deadline - Date.now();
        if (left <= 0) return pendingResult(outcome, { agent_id: agent });
        await sleep(Math.min(RESULT_RETRY_MS, left), ctx.signal, ctx.client.clock);
      }
    } finally {
      await events?.close();
    }
  },
});
