/**
 * The route table: one entry per capability, with its generation-2 route and, where one exists,
 * its generation-1 route (§17.1 of web-data-api-v2.md). `WebDataClient` sends every call through
 * here; `generations.ts` decides which side is tried first. Adding a capability is one entry
 * here and one client method calling `#route(name, schema, {params, body, query})`.
 *
 * - `path`: `{name}` placeholders are filled from `params`, each as one path segment.
 * - `body(b)`: the request body as this generation names it, from what the caller passed
 *   (callers pass generation-1 names where the two differ, e.g. `agent`; the generation-2 side
 *   renames to `template`). Absent: sent as given.
 * - `read(answer)`: this generation's answer brought toward the shape the method's schema reads,
 *   before validation. Absent: the schema reads both generations' shapes itself.
 * - `by`: the path parameter whose id decides the generation (reads and resumes).
 * - `mints(answer)`: the ids the validated answer hands out, remembered with their generation.
 * - `generation2Only`: a capability generation 1 has no route for (§17.1, §18): with
 *   WEBDATA_API_GENERATION=1 a call is refused (`unsupported`) before anything is sent.
 * - `specV2`: a generation-2 side the generation-1 spec itself names (`POST /v2/serp`), so it is
 *   the route on generation 1 too (listed so in the README's tools table).
 */
import type { RequestKind } from "./retry.js";
import { templateAsAgentDetail, templatePageAsAgents } from "./templates.js";

type Obj = Record<string, any>;

export interface RouteSide {
  path: string;
  body?: (body: any) => unknown;
  /** The query as this generation takes it (absent: sent as given). */
  query?: (
    query: Record<string, string | number | boolean | undefined>,
  ) => Record<string, string | number | boolean | undefined>;
  read?: (answer: unknown) => unknown;
}

export interface Route {
  method: "GET" | "POST" | "DELETE" | "PATCH";
  kind: RequestKind;
  1?: RouteSide;
  2?: RouteSide;
  by?: string;
  mints?: (answer: any) => unknown[];
  generation2Only?: true;
  specV2?: true;
}

const isObj = (v: unknown): v is Obj => typeof v === "object" && v !== null && !Array.isArray(v);

/** `agent` (generation 1) → `template` (generation 2) in one run request. */
export function agentToTemplate(body: unknown): unknown {
  if (!isObj(body) || !("agent" in body)) return body;
  const { agent, ...rest } = body;
  return { template: agent, ...rest };
}

const taskId = (a: Obj) => [a?.task_id];
const ownId = (a: Obj) => [a?.id];

/** Renames one member of an object body (generation-1 name → generation-2 name, or back). */
const rename =
  (from: string, to: string) =>
  (body: unknown): unknown => {
    if (!isObj(body) || !(from in body)) return body;
    const { [from]: value, ...rest } = body;
    return { ...rest, [to]: value };
  };
/** The same rename inside a JSON Patch's paths (`/domain_expertise` → `/skill`). */
const renamePatch = (from: string, to: string) => (ops: unknown) =>
  Array.isArray(ops)
    ? ops.map((op) => (isObj(op) && op.path === `/${from}` ? { ...op, path: `/${to}` } : op))
    : ops;
/** A generation-1 answer's `agent_name` (generations, versions) read as `name`. */
function agentNameAsName(answer: unknown): unknown {
  if (!isObj(answer)) return answer;
  const out: Obj = { ...answer };
  if (out.name === undefined && typeof out.agent_name === "string") out.name = out.agent_name;
  if (isObj(out.generated_version)) out.generated_version = agentNameAsName(out.generated_version);
  return out;
}
/** A write (or a creation that bills): never re-sent once it may have reached the service. */
const write = (
  method: Route["method"],
  v2?: string | RouteSide,
  v1?: string | RouteSide,
  extra: Partial<Route> = {},
): Route => {
  const side = (s: string | RouteSide | undefined) => (typeof s === "string" ? { path: s } : s);
  return {
    method,
    kind: "submission",
    ...(v2 ? { 2: side(v2) } : {}),
    ...(v1 ? { 1: side(v1) } : {}),
    ...extra,
  };
};
const both = (by: string | undefined, v2: string, v1: string | undefined): Route => ({
  method: "GET",
  kind: "read",
  ...(by ? { by } : {}),
  2: { path: v2 },
  ...(v1 ? { 1: { path: v1 } } : {}),
});
const batchIds = (a: Obj) => [
  a?.batch_id,
  ...(Array.isArray(a?.tasks) ? a.tasks.map((t: Obj) => t?.id) : []),
];

/** `agent` → `template` in a batch's `shared_inputs` and items. */
function agentBatchToTemplate(body: unknown): unknown {
  if (!isObj(body)) return body;
  return {
    ...body,
    ...(body.shared_inputs !== undefined ? { shared_inputs: agentToTemplate(body.shared_inputs) } : {}),
    ...(Array.isArray(body.inputs) ? { inputs: body.inputs.map(agentToTemplate) } : {}),
  };
}

/** A generation-1 agent run's `params.callback_url` → generation 2's top-level `callback_url` (§3.5). */
function agentAsyncToTemplate(body: unknown): unknown {
  const renamed = agentToTemplate(body);
  if (!isObj(renamed) || !isObj(renamed.params) || typeof renamed.params.callback_url !== "string")
    return renamed;
  const { callback_url, ...params } = renamed.params;
  return { ...renamed, params, callback_url };
}

/** Generation 2 pages templates by `limit`/`offset` only. */
const pageOnly = (q: Record<string, string | number | boolean | undefined>) => ({
  limit: q.limit,
  offset: q.offset,
});

const submit = (
  v2: string | RouteSide | undefined,
  v1: string | RouteSide | undefined,
  mints?: Route["mints"],
): Route => ({
  method: "POST",
  kind: "submission",
  ...(v2 ? { 2: typeof v2 === "string" ? { path: v2 } : v2 } : {}),
  ...(v1 ? { 1: typeof v1 === "string" ? { path: v1 } : v1 } : {}),
  ...(mints ? { mints } : {}),
});
const read = (v2: string | RouteSide | undefined, v1: string | RouteSide | undefined): Route => ({
  ...submit(v2, v1),
  method: "GET",
  kind: "read",
});
const byId = (v2: string | undefined, v1: string | undefined): Route => ({ ...read(v2, v1), by: "id" });

export const ROUTES = {
  // search and extract
  serp: { ...submit("v2/serp", undefined), specV2: true },
  // generation 1: the 0.20.0 SDK's /v1 routes (web-data-api-v2.md §18), same shapes
  fastSerp: submit("v2/fast-serp", "v1/fast-serp"),
  serpBatch: submit("v2/serp/batch", "v1/serp/batch", batchIds),
  extract: submit("v2/extract", "v1/extract"),
  extractAsync: submit("v2/extract/async", "v1/extract/async", taskId),
  extractBatch: submit("v2/extract/batch", "v1/extract/batch", batchIds),

  // tasks and batches
  getTask: byId("v2/tasks/{id}", "v1/tasks/{id}"),
  getTaskResults: byId("v2/tasks/{id}/results", "v1/tasks/{id}/results"),
  listTasks: read("v2/tasks", "v1/tasks"),
  listBatches: read("v2/batches", "v1/batches"),
  getBatch: byId("v2/batches/{id}", "v1/batches/{id}"),
  getBatchProgress: byId("v2/batches/{id}/progress", "v1/batches/{id}/progress"),

  // agents (generation 1) are extract templates in generation 2
  listAgents: read(
    { path: "v2/extract/templates", query: pageOnly, read: templatePageAsAgents },
    "v1/agents",
  ),
  getAgent: read({ path: "v2/extract/templates/{name}", read: templateAsAgentDetail }, "v1/agents/{name}"),
  runAgent: submit({ path: "v2/extract/templates/run", body: agentToTemplate }, "v1/agents/run"),
  runAgentAsync: submit(
    { path: "v2/extract/templates/async", body: agentAsyncToTemplate },
    "v1/agent/async",
    taskId,
  ),
  agentsAsync: submit(
    { path: "v2/extract/templates/async", body: agentAsyncToTemplate },
    "v1/agents/async",
    taskId,
  ),
  agentsBatch: submit(
    { path: "v2/extract/templates/batch", body: agentBatchToTemplate },
    "v1/agents/batch",
    batchIds,
  ),
  runTemplate: submit("v2/extract/templates/run", undefined),
  templatesBatch: submit("v2/extract/templates/batch", undefined, batchIds),
  listTemplateVersions: read("v2/extract/templates/{name}/versions", undefined),

  // crawl and map (no async map in generation 2; the sync map is the SDK's in both)
  crawl: submit("v2/crawl", "v1/crawl", (a: Obj) => [a?.crawl_id]),
  getCrawl: byId("v2/crawl/{id}", "v1/crawl/{id}"),
  map: submit("v2/map", "v1/map"),
  mapAsync: submit(undefined, "v1/map/async", taskId),

  // domain health (generation 1 only; read-only, retried like a GET) and knowledge
  checkDomainHealth: { ...submit(undefined, "v1/domain-health/check"), kind: "read" },
  domainDriver: read("v2/domain-knowledge/driver", "v1/domain-knowledge/driver"),

  // jobs
  jobRuns: read("v2/jobs/{job}/runs", undefined),
  artifactDownloadUrl: read("v2/jobs/runs/{run}/artifacts/{artifact}/download-url", undefined),

  // generation-2 capabilities (web-data-api-v2.md §4, §8, §12–15; generation 1 §18)
  search: write("POST", "v2/search", "v1/search"),
  createGeneration: write(
    "POST",
    { path: "v2/extract/templates/generations", body: rename("from_agent", "from_extract_template") },
    { path: "v1/agents/generations", read: agentNameAsName },
    { mints: ownId },
  ),
  getGeneration: {
    ...both("id", "v2/extract/templates/generations/{id}", "v1/agents/generations/{id}"),
    1: { path: "v1/agents/generations/{id}", read: agentNameAsName },
  },
  getTemplate: both(undefined, "v2/extract/templates/{name}", undefined),
  updateTemplate: write("PATCH", "v2/extract/templates/{name}", undefined, { generation2Only: true }),
  deleteTemplate: write("DELETE", "v2/extract/templates/{name}", undefined, { generation2Only: true }),
  listResearchAgents: both(undefined, "v2/agents", "v1/task-agents"),
  listAgentTemplates: both(undefined, "v2/agents/templates", "v1/task-agents/templates"),
  getResearchAgent: both("agent", "v2/agents/{agent}", "v1/task-agents/{agent}"),
  createResearchAgent: write(
    "POST",
    { path: "v2/agents", body: rename("domain_expertise", "skill") },
    "v1/task-agents",
    { mints: ownId },
  ),
  updateResearchAgent: write(
    "PATCH",
    { path: "v2/agents/{agent}", body: renamePatch("domain_expertise", "skill") },
    "v1/task-agents/{agent}",
    { by: "agent" },
  ),
  deleteResearchAgent: write("DELETE", "v2/agents/{agent}", "v1/task-agents/{agent}", { by: "agent" }),
  startResearchRun: write("POST", "v2/agents/{agent}/runs", "v1/task-agents/{agent}/runs", { by: "agent" }),
  startOneShotResearch: write("POST", "v2/agents/runs", undefined, {
    mints: (a: Obj) => [a?.web_search_agent_id],
  }),
  getResearchRun: both("agent", "v2/agents/{agent}/runs/{run}", "v1/task-agents/{agent}/runs/{run}"),
  getResearchResult: both(
    "agent",
    "v2/agents/{agent}/runs/{run}/result",
    "v1/task-agents/{agent}/runs/{run}/result",
  ),
  /** Server-sent events: `researchEvents` streams it on the agent's generation, outside `#route`. */
  researchEvents: both(
    "agent",
    "v2/agents/{agent}/runs/{run}/events",
    "v1/task-agents/{agent}/runs/{run}/events",
  ),
  listCrawls: both(undefined, "v2/crawl", "v1/crawl"),
  cancelCrawl: write("DELETE", "v2/crawl/{id}", "v1/crawl/{id}", { by: "id" }),
  listJobs: both(undefined, "v2/jobs", "v1/jobs"),
  createJob: write(
    "POST",
    { path: "v2/jobs", body: rename("agent_name", "extract_template_name") },
    "v1/jobs",
    {
      mints: ownId,
    },
  ),
  updateJob: write("PATCH", "v2/jobs/{job}", "v1/jobs/{job}", { by: "job" }),
  deleteJob: write("DELETE", "v2/jobs/{job}", "v1/jobs/{job}", { by: "job" }),
  triggerJob: write("POST", "v2/jobs/{job}/runs", "v1/jobs/{job}/runs", { by: "job", mints: ownId }),
  getJobRun: both("run", "v2/jobs/runs/{run}", "v1/jobs/{job}/runs/{run}"),
  cancelJobRun: write("POST", "v2/jobs/runs/{run}/cancel", "v1/jobs/{job}/runs/{run}/cancel", { by: "run" }),
  listArtifacts: both("run", "v2/jobs/runs/{run}/artifacts", "v1/jobs/{job}/runs/{run}/artifacts"),
  artifactPreview: both(
    "run",
    "v2/jobs/runs/{run}/artifacts/{artifact}/preview",
    "v1/jobs/{job}/runs/{run}/artifacts/{artifact}/preview",
  ),
  mediaAsync: write("POST", "v2/media/async", "v1/media/async", { mints: taskId }),
} satisfies Record<string, Route>;

export type RouteName = keyof typeof ROUTES;

/** The routes of a capability, for documentation: "POST /v2/extract · POST /v1/extract". */
export function routeLabel(name: RouteName): string {
  const route: Route = ROUTES[name];
  return ([2, 1] as const)
    .flatMap((g) => (route[g] ? [`${route.method} /${route[g].path}`] : []))
    .join(" · ");
}
