/**
 * Research agents (§14) under /v2/agents and, in generation 1, /v1/task-agents (`domain_expertise`
 * for `skill`, result 408 instead of 409 while the run is active, no create-or-reuse
 * `POST .../runs`). Agent delete is soft: `is_active` becomes false, runs stay readable.
 * The events route is server-sent events, only for runs created with `enable_events`.
 */
import { Hono } from "hono";
import { streamSSE } from "hono/streaming";
import { pageQuery } from "../../api/schemas.js";
import {
  JsonPatchSchema,
  ResearchAgentCreateSchema,
  ResearchRunRequestSchema,
} from "../../api/schemas-v2.js";
import type { SandboxState } from "../context.js";
import { FAULT_HEADER } from "../faults.js";
import { type Ctx, errorResponse, notFound, parseBody, parseQuery, type SandboxEnv } from "../http.js";
import { AGENT_TEMPLATES, type ResearchAgent, ResearchStore } from "../lifecycle/research.js";

type Gen = 1 | 2;

/** Generation 1 names the agent's skill `domain_expertise`. */
function agentView(agent: ResearchAgent, gen: Gen) {
  if (gen === 2) return agent;
  const { skill, ...rest } = agent;
  return { ...rest, domain_expertise: skill };
}

const page = <T>(c: Ctx, all: T[]) => {
  const query = parseQuery(c, pageQuery(100, 20));
  if (!query.ok) return query.response;
  const { limit, offset } = query.data;
  return c.json({ items: all.slice(offset, offset + limit), limit, offset, total: all.length });
};

export function researchRoutes(state: SandboxState) {
  const r = new Hono<SandboxEnv>();
  const store = new ResearchStore(state);
  const fault = (c: Ctx) =>
    state.faults.take(["task_error"], `${c.req.method} ${c.req.path}`, c.req.header(FAULT_HEADER)) !==
    undefined;
  const agentOf = (c: Ctx) => store.agents.get(c.req.param("agentId") ?? "");
  const runOf = (c: Ctx) => {
    const run = store.runs.get(c.req.param("runId") ?? "");
    return run && run.agentId === c.req.param("agentId") ? run : undefined;
  };

  for (const gen of [2, 1] as const) {
    const base = gen === 2 ? "/v2/agents" : "/v1/task-agents";
    const view = (a: ResearchAgent) => agentView(a, gen);

    r.get(`${base}/templates`, (c) =>
      page(
        c,
        AGENT_TEMPLATES.map((t) => (gen === 2 ? t : { ...t, skill: undefined, domain_expertise: t.skill })),
      ),
    );
    r.get(`${base}/templates/:name`, (c) => {
      const t = AGENT_TEMPLATES.find((x) => x.template_name === c.req.param("name"));
      return t ? c.json(t) : notFound(c, `Agent template '${c.req.param("name")}'`);
    });

    r.post(base, async (c) => {
      const body = await parseBody(c, ResearchAgentCreateSchema);
      if (!body.ok) return body.response;
      const agent = store.createAgent(body.data);
      return agent ? c.json(view(agent)) : notFound(c, `Agent template '${body.data.template}'`);
    });
    r.get(base, (c) => page(c, [...store.agents.values()].map(view)));
    r.get(`${base}/:agentId`, (c) => {
      const agent = agentOf(c);
      return agent ? c.json(view(agent)) : notFound(c, "Agent");
    });
    r.patch(`${base}/:agentId`, async (c) => {
      const agent = agentOf(c);
      if (!agent) return notFound(c, "Agent");
      const body = await parseBody(c, JsonPatchSchema);
      if (!body.ok) return body.response;
      for (const op of body.data) {
        const key = op.path.slice(1) === "domain_expertise" ? "skill" : op.path.slice(1);
        if (op.op === "replace" || op.op === "add")
          (agent as unknown as Record<string, unknown>)[key] = op.value;
      }
      agent.updated_at = new Date().toISOString();
      return c.json(view(agent));
    });
    r.delete(`${base}/:agentId`, (c) => {
      const agent = agentOf(c);
      if (!agent) return notFound(c, "Agent");
      agent.is_active = false;
      return c.body(null, 204);
    });

    if (gen === 2) {
      r.post(`${base}/runs`, async (c) => {
        const body = await parseBody(c, ResearchRunRequestSchema);
        if (!body.ok) return body.response;
        const name = body.data.agent_name;
        const agent =
          (name ? store.byName(name) : undefined) ??
          store.createAgent({ agent_name: name, skill: body.data.skill, use_case: body.data.use_case })!;
        return c.json(store.runRecord(store.startRun(agent, body.data, fault(c))));
      });
    }
    r.post(`${base}/:agentId/runs`, async (c) => {
      const agent = agentOf(c);
      if (!agent) return notFound(c, "Agent");
      const body = await parseBody(c, ResearchRunRequestSchema);
      if (!body.ok) return body.response;
      if (!agent.is_active)
        return errorResponse(c, 400, "This agent is deactivated and can start no new runs");
      return c.json(store.runRecord(store.startRun(agent, body.data, fault(c))));
    });
    r.get(`${base}/:agentId/runs`, (c) => {
      const agent = agentOf(c);
      if (!agent) return notFound(c, "Agent");
      const runs = [...store.runs.values()].filter((x) => x.agentId === agent.id).reverse();
      return page(
        c,
        runs.map((x) => store.runRecord(x)),
      );
    });
    r.get(`${base}/:agentId/runs/:runId`, (c) => {
      const run = runOf(c);
      return run ? c.json(store.runRecord(run)) : notFound(c, "Run");
    });
    r.get(`${base}/:agentId/runs/:runId/result`, (c) => {
      const run = runOf(c);
      if (!run) return notFound(c, "Run");
      const record = store.runRecord(run);
      if (record.is_active) {
        const status = gen === 2 ? 409 : 408;
        return c.json(
          { error: { code: "RUN_NOT_FINISHED", message: `The run is ${record.status}; try again later` } },
          status,
        );
      }
      if (record.status !== "completed") return c.json({ error: record.error, run: record }, 422);
      return c.json({ run: record, output: store.output(run) });
    });
    r.get(`${base}/:agentId/runs/:runId/events`, (c) => {
      const run = runOf(c);
      if (!run) return notFound(c, "Run");
      if (!run.events) return notFound(c, "Events (the run was created without enable_events)");
      return streamSSE(c, async (stream) => {
        let sent = 0;
        const tick = Math.max(5, Math.floor(state.config.taskLatencyMs / 4));
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
    });
  }
  return r;
}
