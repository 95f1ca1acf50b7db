/**
 * Agents: GET /v1/agents, GET /v1/agents/{name}, POST /v1/agents/run (sync),
 * /v1/agent/async and /v1/agents/async, /v1/agents/batch, POST /v1/agents/generations (the
 * spec's immediate custom agent). Generation 1 only: generation 2 calls agents templates
 * (routes/templates.ts).
 */
import type { ValidationDetail } from "../../api/schemas.js";
import { AgentBatchRequestSchema, AgentListQuerySchema, AgentRunRequestSchema } from "../../api/schemas.js";
import { agentRecord } from "../agents/catalog.js";
import { GenerationRequestSchema, generatedAgent, outputSchemaProblems } from "../agents/generation.js";
import { checkParams } from "../agents/params.js";
import { type AgentRunInput, createAgentTask } from "../agents/run.js";
import type { SandboxState } from "../context.js";
import * as live from "../dialect.js";
import { staggeredDelay } from "../extract.js";
import { type Ctx, notFound, parseBody, parseQuery, validationResponse } from "../http.js";
import type { Route } from "../routing.js";
import { stripUndefined, submission } from "./extract.js";

type Resolved = {
  ok: true;
  input: AgentRunInput;
  agent: NonNullable<ReturnType<SandboxState["catalog"]["get"]>>;
};

/** Finds the agent and checks its params; `loc` is where the run sits in the body. */
function resolveRun(
  state: SandboxState,
  run: { agent?: string; params?: Record<string, unknown>; formats?: string[] },
  loc: (string | number)[],
): Resolved | { ok: false; detail: ValidationDetail[]; unknownAgent?: string } {
  if (!run.agent)
    return { ok: false, detail: [{ loc: [...loc, "agent"], msg: "Field required", type: "missing" }] };
  const agent = state.catalog.get(run.agent);
  if (!agent) {
    return {
      ok: false,
      unknownAgent: run.agent,
      detail: [
        {
          loc: [...loc, "agent"],
          msg: `Agent '${run.agent}' not found`,
          type: "value_error",
          input: run.agent,
        },
      ],
    };
  }
  const checked = checkParams(agent.name, agent.input_properties, run.params ?? {}, [...loc, "params"]);
  if (checked.detail.length > 0) return { ok: false, detail: checked.detail };
  return { ok: true, agent, input: { agent: agent.name, params: checked.params, formats: run.formats } };
}

/** A run of one agent, checked; `delayMs` 0 is the sync run. */
async function runOne(c: Ctx, state: SandboxState, delayMs: number) {
  const body = await parseBody(c, AgentRunRequestSchema);
  if (!body.ok) return body.response;
  const run = resolveRun(state, body.data, ["body"]);
  if (!run.ok)
    return run.unknownAgent ? notFound(c, `Agent '${run.unknownAgent}'`) : validationResponse(c, run.detail);
  return createAgentTask(state, run.agent, run.input, { ...submission(c), delayMs });
}

const runAsync: Route["handle"] = async (c, { state }) => {
  const task = await runOne(c, state, state.config.taskLatencyMs);
  return task instanceof Response ? task : { task_id: task.id };
};

const delay = (state: SandboxState) => state.timers.sleep(state.config.catalogDelayMs);

export const AGENT_ROUTES: Route[] = [
  {
    method: "GET",
    1: { path: "/v1/agents", live: live.agentList },
    handle: async (c, { state }) => {
      const query = parseQuery(c, AgentListQuerySchema);
      if (!query.ok) return query.response;
      await delay(state);
      const { privacy, managed_by, limit, offset } = query.data;
      const agents = state.catalog
        .all()
        .filter((a) => privacy === "all" || a.is_public === (privacy === "public"))
        .filter((a) => managed_by === undefined || a.managed_by === managed_by);
      return agents.slice(offset, offset + limit).map(agentRecord);
    },
  },
  {
    method: "GET",
    1: { path: "/v1/agents/:name", live: live.agentDetail },
    handle: async (c, { state }) => {
      await delay(state);
      const name = c.req.param("name") ?? "";
      return state.catalog.get(name) ?? notFound(c, `Agent '${name}'`);
    },
  },
  {
    method: "POST",
    1: { path: "/v1/agents/run", live: live.taskResult },
    handle: async (c, { state }) => {
      const task = await runOne(c, state, 0);
      return task instanceof Response ? task : state.tasks.result(task);
    },
  },
  { method: "POST", 1: { path: "/v1/agent/async", live: live.taskSubmission }, handle: runAsync },
  { method: "POST", 1: { path: "/v1/agents/async", live: live.taskSubmission }, handle: runAsync },
  {
    method: "POST",
    1: { path: "/v1/agents/batch", live: live.batchSubmission },
    handle: async (c, { state }) => {
      const body = await parseBody(c, AgentBatchRequestSchema);
      if (!body.ok) return body.response;
      const { inputs, shared_inputs } = body.data;
      const runs: Resolved[] = [];
      const detail: ValidationDetail[] = [];
      inputs.forEach((item, i) => {
        const merged = {
          ...shared_inputs,
          ...stripUndefined(item),
          params: { ...shared_inputs.params, ...item.params },
        };
        const run = resolveRun(state, merged, ["body", "inputs", i]);
        if (run.ok) runs.push(run);
        else detail.push(...run.detail);
      });
      if (detail.length > 0) return validationResponse(c, detail);
      const batchId = state.batches.newId();
      const latency = state.config.taskLatencyMs;
      const tasks = runs.map((run, i) =>
        createAgentTask(state, run.agent, run.input, {
          ...submission(c),
          batchId,
          delayMs: staggeredDelay(latency, i, runs.length),
        }),
      );
      return state.batches.submit(batchId, "agent", tasks);
    },
  },
  {
    method: "POST",
    1: { path: "/v1/agents/generations" },
    handle: async (c, { state }) => {
      const body = await parseBody(c, GenerationRequestSchema);
      if (!body.ok) return body.response;
      const problems = outputSchemaProblems(body.data.output_schema);
      const name = body.data.name ?? `custom_agent_${state.catalog.all().length + 1}`;
      if (state.catalog.get(name)) {
        problems.push({
          loc: ["body", "name"],
          msg: `Value error, agent '${name}' already exists`,
          type: "value_error",
          input: name,
        });
      }
      if (problems.length > 0) return validationResponse(c, problems);
      const agent = generatedAgent(body.data, name);
      state.catalog.add(agent);
      return agent;
    },
  },
];
