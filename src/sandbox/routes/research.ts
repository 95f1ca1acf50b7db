/**
 * Research agents (§14) under /v2/agents and, in generation 1, /v1/task-agents, side by side (`domain_expertise`
 * for `skill`, result 408 instead of 409 while the run is active, no create-or-reuse
 * `POST .../runs`). Agent delete is soft: `is_active` becomes false, runs stay readable.
 * The events route is server-sent events, only for runs created with `enable_events`.
 */
import { streamSSE } from "hono/streaming";
import { pageQuery } from "../../api/schemas.js";
import {
  JsonPatchSchema,
  ResearchAgentCreateSchema,
  ResearchRunRequestSchema,
} from "../../api/schemas-v2.js";
import type { SandboxState } from "../context.js";
import { FAULT_HEADER } from "../faults.js";
import { type Ctx, errorResponse, notFound, parseBody, parseQuery } from "../http.js";
import { AGENT_TEMPLATES, type ResearchAgent } from "../lifecycle/research.js";
import { type Route, route, type Shape } from "../routing.js";

/** The listing's limit/offset query (one schema, built once: zod compiles each on first use). */
const RESEARCH_QUERY = pageQuery(100, 20);

/** Generation 1 names the agent's skill `domain_expertise`. */
function v1Agent(agent: ResearchAgent) {
  const { skill, ...rest } = agent;
  return { ...rest, domain_expertise: skill };
}
const v1AgentReply: Shape = (b) => v1Agent(b);
const v1AgentPage: Shape = (b) => ({ ...b, items: b.items.map(v1Agent) });

const page = <T>(c: Ctx, all: T[]) => {
  const query = parseQuery(c, RESEARCH_QUERY);
  if (!query.ok) return query.response;
  const { limit, offset } = query.data;
  return { items: all.slice(offset, offset + limit), limit, offset, total: all.length };
};

type On = { state: SandboxState };
const fault = (c: Ctx, { state }: On) =>
  state.faults.take(["task_error"], `${c.req.method} ${c.req.path}`, c.req.header(FAULT_HEADER)) !==
  undefined;
const agentOf = (c: Ctx, { state }: On) => state.research.agents.get(c.req.param("agentId") ?? "");
const runOf = (c: Ctx, { state }: On) => {
  const run = state.research.runs.get(c.req.param("runId") ?? "");
  return run && run.agentId === c.req.param("agentId") ? run : undefined;
};

/** Both generations' paths under their bases, with the side data given. */
const at = <S extends object>(tail: string, one: S = {} as S, two: S = {} as S) => ({
  1: { path: `/v1/task-agents${tail}`, ...one },
  2: { path: `/v2/agents${tail}`, ...two },
});

export const RESEARCH_ROUTES: Route[] = [
  {
    method: "GET",
    ...at("/templates", { reply: v1AgentPage }),
    handle: (c) => page(c, AGENT_TEMPLATES),
  },
  {
    method: "GET",
    ...at("/templates/:name"),
    handle: (c) =>
      AGENT_TEMPLATES.find((x) => x.template_name === c.req.param("name")) ??
      notFound(c, `Agent template '${c.req.param("name")}'`),
  },
  {
    method: "POST",
    ...at("", { reply: v1AgentReply }),
    handle: async (c, { state }) => {
      const body = await parseBody(c, ResearchAgentCreateSchema);
      if (!body.ok) return body.response;
      return state.research.createAgent(body.data) ?? notFound(c, `Agent template '${body.data.template}'`);
    },
  },
  {
    method: "GET",
    ...at("", { reply: v1AgentPage }),
    handle: (c, { state }) => page(c, [...state.research.agents.values()]),
  },
  {
    method: "GET",
    ...at("/:agentId", { reply: v1AgentReply }),
    handle: (c, on) => agentOf(c, on) ?? notFound(c, "Agent"),
  },
  {
    method: "PATCH",
    ...at("/:agentId", { reply: v1AgentReply }),
    handle: async (c, on) => {
      const agent = agentOf(c, on);
      if (!agent) return notFound(c, "Agent");
      const body = await parseBody(c, JsonPatchSchema);
      if (!body.ok) return body.response;
      for (const op of body.data) {
        const key = op.path.slice(1) === "domain_expertise" ? "skill" : op.path.slice(1);
        if (op.op === "replace" || op.op === "add") Object.assign(agent, { [key]: op.value });
      }
      agent.updated_at = new Date().toISOString();
      return agent;
    },
  },
  {
    method: "DELETE",
    ...at("/:agentId"),
    handle: (c, on) => {
      const agent = agentOf(c, on);
      if (!agent) return notFound(c, "Agent");
      agent.is_active = false;
      return c.body(null, 204);
    },
  },
  {
    // Create-or-reuse a research agent by name, then run it: generation 2 only.
    method: "POST",
    2: { path: "/v2/agents/runs" },
    handle: async (c, on) => {
      const body = await parseBody(c, ResearchRunRequestSchema);
      if (!body.ok) return body.response;
      const store = on.state.research;
      const name = body.data.agent_name;
      const agent =
        (name ? store.byName(name) : undefined) ??
        store.createAgent({ agent_name: name, skill: body.data.skill, use_case: body.data.use_case })!;
      return store.runRecord(store.startRun(agent, body.data, fault(c, on)));
    },
  },
  {
    method: "POST",
    ...at("/:agentId/runs"),
    handle: async (c, on) => {
      const agent = agentOf(c, on);
      if (!agent) return notFound(c, "Agent");
      const body = await parseBody(c, ResearchRunRequestSchema);
      if (!body.ok) return body.response;
      if (!agent.is_active)
        return errorResponse(c, 400, "This agent is deactivated and can start no new runs");
      return on.state.research.runRecord(on.state.research.startRun(agent, body.data, fault(c, on)));
    },
  },
  {
    method: "GET",
    ...at("/:agentId/runs"),
    handle: (c, on) => {
      const agent = agentOf(c, on);
      if (!agent) return notFound(c, "Agent");
      const store = on.state.research;
      const runs = [...store.runs.values()].filter((x) => x.agentId === agent.id).reverse();
      return page(
        c,
        runs.map((x) => store.runRecord(x)),
      );
    },
  },
  {
    method: "GET",
    ...at("/:agentId/runs/:runId"),
    handle: (c, on) => {
      const run = runOf(c, on);
      return run ? on.state.research.runRecord(run) : notFound(c, "Run");
    },
  },
  route<{ busy: 408 | 409 }>({
    // While the run is active: 409 in generation 2, 408 in generation 1.
    method: "GET",
    ...at("/:agentId/runs/:runId/result", { busy: 408 as const }, { busy: 409 as const }),
    handle: (c, on) => {
      const run = runOf(c, on);
      if (!run) return notFound(c, "Run");
      const record = on.state.research.runRecord(run);
      if (record.is_active) {
        const message = `The run is ${record.status}; try again later`;
        return c.json({ error: { code: "RUN_NOT_FINISHED", message } }, on.side.busy);
      }
      if (record.status !== "completed") return c.json({ error: record.error, run: record }, 422);
      return { run: record, output: on.state.research.output(run) };
    },
  }),
  { method: "GET", ...at("/:agentId/runs/:runId/events"), handle: events },
];

/** Server-sent events of a run created with `enable_events`. */
function events(c: Ctx, on: On) {
  const run = runOf(c, on);
  if (!run) return notFound(c, "Run");
  if (!run.events) return notFound(c, "Events (the run was created without enable_events)");
  const store = on.state.research;
  return streamSSE(c, async (stream) => {
    let sent = 0;
    const tick = Math.max(5, Math.floor(on.state.config.taskLatencyMs / 4));
    while (!stream.aborted) {
      // Read the state first: the events read after it include the last one when it ended.
      const active = store.runRecord(run).is_active;
      const events = store.events(run);
      for (; sent < events.length; sent++) {
        const { event, data } = events[sent];
        await stream.writeSSE({ event, data: JSON.stringify(data), id: String(sent + 1) });
      }
      if (!active) break;
      await stream.sleep(tick);
    }
  });
}
