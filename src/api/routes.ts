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
import type { Mint, Taken, WorkKind, WorkRule } from "./work.js";

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
  /**
   * What the route does to the account's work (`work.ts`): the ids it mints, takes and lists, or
   * `"none"` for a route that touches no one's work (search, the public catalogs, domain health).
   * Every route says one or the other: over HTTP it is the route's ownership rule.
   */
  work: WorkRule | "none";
  /**
   * Where the request takes a completion webhook (its first minted id is bound to it): `url` a
   * member holding the URL, `crawl` the crawl's `callback: {url, headers, events}`.
   */
  callback?: { url: string } | "crawl";
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
type Side = string | RouteSide | undefined;
const side = (s: Side) => (typeof s === "string" ? { path: s } : s);
const sides = (v2: Side, v1: Side) => ({
  ...(v2 ? { 2: side(v2) } : {}),
  ...(v1 ? { 1: side(v1) } : {}),
});

/** A write (or a creation that bills): never re-sent once it may have reached the service. */
const write = (
  method: Route["method"],
  v2: Side,
  v1: Side,
  work: Route["work"],
  extra: Partial<Route> = {},
): Route => ({
  method,
  kind: "submission",
  ...sides(v2, v1),
  work,
  ...extra,
});
const submit = (v2: Side, v1: Side, work: Route["work"], extra: Partial<Route> = {}): Route =>
  write("POST", v2, v1, work, extra);
const read = (v2: Side, v1: Side, work: Route["work"], extra: Partial<Route> = {}): Route => ({
  method: "GET",
  kind: "read",
  ...sides(v2, v1),
  work,
  ...extra,
});

// ---------- work rules (work.ts) ----------

const mint = (kind: WorkKind, at: string): Mint => ({ kind, at });
const param = (kind: WorkKind, name: string, change?: true): Taken => ({
  kind,
  param: name,
  ...(change ? { change } : {}),
});
const inBody = (kind: WorkKind, at: string, change?: true): Taken => ({
  kind,
  body: at,
  ...(change ? { change } : {}),
});
/** A task id, as the async routes answer it. */
const TASK_ID = { mints: [mint("task", "task_id")] };
/** A sync run's result: its task id at the top or in `task`. */
const TASK_RESULT = [mint("task", "task_id"), mint("task", "task.id")];
const BATCH = [mint("batch", "batch_id"), mint("task", "tasks[].id")];
/** A run of a template named in the body (a public one or the caller's). */
const runs = (at: string): WorkRule => ({ mints: TASK_RESULT, takes: [inBody("template", at)] });
const page = (kind: WorkKind, items = "items", id = "id", totals = ["total"]) => ({
  kind,
  items,
  id,
  totals,
});
const ONE_TASK: WorkRule = { takes: [param("task", "id")] };
const ONE_BATCH: WorkRule = { takes: [param("batch", "id")] };
const RESEARCH_RUN: WorkRule = { takes: [param("research_agent", "agent"), param("research_run", "run")] };
const JOB_RUN: WorkRule = { takes: [param("run", "run")] };
const ARTIFACT: WorkRule = { takes: [param("run", "run"), param("artifact", "artifact")] };
const TEMPLATE: WorkRule = { takes: [param("template", "name")] };

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

export const ROUTES = {
  // search and extract
  serp: submit("v2/serp", undefined, "none", { specV2: true }),
  // generation 1: the 0.20.0 SDK's /v1 routes (web-data-api-v2.md §18), same shapes
  fastSerp: submit("v2/fast-serp", "v1/fast-serp", "none"),
  serpBatch: submit("v2/serp/batch", "v1/serp/batch", { mints: BATCH }),
  serpAsync: submit("v2/serp/async", "v1/serp/async", TASK_ID, { callback: { url: "callback_url" } }),
  extract: submit("v2/extract", "v1/extract", { mints: TASK_RESULT }),
  extractAsync: submit("v2/extract/async", "v1/extract/async", TASK_ID, {
    callback: { url: "callback_url" },
  }),
  extractBatch: submit("v2/extract/batch", "v1/extract/batch", { mints: BATCH }),

  // tasks and batches
  getTask: read("v2/tasks/{id}", "v1/tasks/{id}", ONE_TASK, { by: "id" }),
  getTaskResults: read("v2/tasks/{id}/results", "v1/tasks/{id}/results", ONE_TASK, { by: "id" }),
  listTasks: read("v2/tasks", "v1/tasks", { lists: page("task", "tasks") }),
  listBatches: read("v2/batches", "v1/batches", { lists: page("batch", "batches", "batch_id", []) }),
  // The tasks of an owned batch or crawl are the owner's too (read with get_task).
  getBatch: read(
    "v2/batches/{id}",
    "v1/batches/{id}",
    { ...ONE_BATCH, mints: [mint("task", "tasks[].id")] },
    { by: "id" },
  ),
  getBatchProgress: read("v2/batches/{id}/progress", "v1/batches/{id}/progress", ONE_BATCH, { by: "id" }),

  // agents (generation 1) are extract templates in generation 2
  listAgents: read(
    { path: "v2/extract/templates", query: pageOnly, read: templatePageAsAgents },
    "v1/agents",
    { lists: page("template", "", "name", []) },
  ),
  getAgent: read(
    { path: "v2/extract/templates/{name}", read: templateAsAgentDetail },
    "v1/agents/{name}",
    TEMPLATE,
  ),
  runAgent: submit(
    { path: "v2/extract/templates/run", body: agentToTemplate },
    "v1/agents/run",
    runs("agent"),
  ),
  runAgentAsync: submit(
    { path: "v2/extract/templates/async", body: agentAsyncToTemplate },
    "v1/agent/async",
    runs("agent"),
    {
      callback: { url: "params.callback_url" },
    },
  ),
  agentsAsync: submit(
    { path: "v2/extract/templates/async", body: agentAsyncToTemplate },
    "v1/agents/async",
    runs("agent"),
    {
      callback: { url: "params.callback_url" },
    },
  ),
  agentsBatch: submit({ path: "v2/extract/templates/batch", body: agentBatchToTemplate }, "v1/agents/batch", {
    mints: BATCH,
    takes: [inBody("template", "shared_inputs.agent"), inBody("template", "inputs[].agent")],
  }),
  runTemplate: submit("v2/extract/templates/run", undefined, runs("template")),
  templatesBatch: submit("v2/extract/templates/batch", undefined, {
    mints: BATCH,
    takes: [inBody("template", "template")],
  }),
  listTemplateVersions: read("v2/extract/templates/{name}/versions", undefined, TEMPLATE),

  // crawl and map (no async map in generation 2; the sync map is the SDK's in both)
  crawl: submit("v2/crawl", "v1/crawl", { mints: [mint("crawl", "crawl_id")] }, { callback: "crawl" }),
  getCrawl: read(
    "v2/crawl/{id}",
    "v1/crawl/{id}",
    { takes: [param("crawl", "id")], mints: [mint("task", "crawl.tasks[].id")] },
    { by: "id" },
  ),
  map: submit("v2/map", "v1/map", "none"),
  mapAsync: submit(undefined, "v1/map/async", TASK_ID, { callback: { url: "callback_url" } }),

  // domain health (generation 1 only; read-only, retried like a GET) and knowledge
  checkDomainHealth: { ...submit(undefined, "v1/domain-health/check", "none"), kind: "read" },
  domainDriver: read("v2/domain-knowledge/driver", "v1/domain-knowledge/driver", "none"),

  // jobs (a job's runs listed by its owner become the owner's)
  jobRuns: read("v2/jobs/{job}/runs", undefined, {
    takes: [param("job", "job")],
    mints: [mint("run", "items[].id")],
    lists: page("run"),
  }),
  artifactDownloadUrl: read("v2/jobs/runs/{run}/artifacts/{artifact}/download-url", undefined, ARTIFACT),

  // generation-2 capabilities (web-data-api-v2.md §4, §8, §12–15; generation 1 §18)
  search: write("POST", "v2/search", "v1/search", "none"),
  // A refinement makes a new version of the template it names: its maker's only.
  createGeneration: write(
    "POST",
    { path: "v2/extract/templates/generations", body: rename("from_agent", "from_extract_template") },
    { path: "v1/agents/generations", read: agentNameAsName },
    {
      mints: [mint("generation", "id"), mint("template", "name")],
      // A new template's name may not be another user's (that would make a version of theirs).
      takes: [inBody("template", "from_agent", true), inBody("template", "name")],
    },
  ),
  getGeneration: read(
    "v2/extract/templates/generations/{id}",
    { path: "v1/agents/generations/{id}", read: agentNameAsName },
    { takes: [param("generation", "id")], mints: [mint("template", "name")] },
    { by: "id" },
  ),
  getTemplate: read("v2/extract/templates/{name}", undefined, TEMPLATE),
  updateTemplate: write(
    "PATCH",
    "v2/extract/templates/{name}",
    undefined,
    { takes: [param("template", "name", true)] },
    {
      generation2Only: true,
    },
  ),
  deleteTemplate: write(
    "DELETE",
    "v2/extract/templates/{name}",
    undefined,
    { takes: [param("template", "name", true)] },
    {
      generation2Only: true,
    },
  ),
  listResearchAgents: read("v2/agents", "v1/task-agents", { lists: page("research_agent") }),
  listAgentTemplates: read("v2/agents/templates", "v1/task-agents/templates", "none"),
  getResearchAgent: read(
    "v2/agents/{agent}",
    "v1/task-agents/{agent}",
    { takes: [param("research_agent", "agent")] },
    { by: "agent" },
  ),
  createResearchAgent: write(
    "POST",
    { path: "v2/agents", body: rename("domain_expertise", "skill") },
    "v1/task-agents",
    { mints: [mint("research_agent", "id")] },
  ),
  updateResearchAgent: write(
    "PATCH",
    { path: "v2/agents/{agent}", body: renamePatch("domain_expertise", "skill") },
    "v1/task-agents/{agent}",
    { takes: [param("research_agent", "agent", true)] },
    { by: "agent" },
  ),
  deleteResearchAgent: write(
    "DELETE",
    "v2/agents/{agent}",
    "v1/task-agents/{agent}",
    { takes: [param("research_agent", "agent", true)] },
    { by: "agent" },
  ),
  startResearchRun: write(
    "POST",
    "v2/agents/{agent}/runs",
    "v1/task-agents/{agent}/runs",
    {
      takes: [param("research_agent", "agent")],
      mints: [mint("research_run", "id")],
    },
    { by: "agent" },
  ),
  startOneShotResearch: write("POST", "v2/agents/runs", undefined, {
    mints: [mint("research_agent", "web_search_agent_id"), mint("research_run", "id")],
  }),
  getResearchRun: read("v2/agents/{agent}/runs/{run}", "v1/task-agents/{agent}/runs/{run}", RESEARCH_RUN, {
    by: "agent",
  }),
  getResearchResult: read(
    "v2/agents/{agent}/runs/{run}/result",
    "v1/task-agents/{agent}/runs/{run}/result",
    RESEARCH_RUN,
    { by: "agent" },
  ),
  /** Server-sent events: `researchEvents` streams it on the agent's generation, outside `#route`. */
  researchEvents: read(
    "v2/agents/{agent}/runs/{run}/events",
    "v1/task-agents/{agent}/runs/{run}/events",
    RESEARCH_RUN,
    { by: "agent" },
  ),
  listCrawls: read("v2/crawl", "v1/crawl", {
    lists: page("crawl", "data", "crawl_id", ["pagination.total"]),
  }),
  cancelCrawl: write(
    "DELETE",
    "v2/crawl/{id}",
    "v1/crawl/{id}",
    { takes: [param("crawl", "id", true)] },
    { by: "id" },
  ),
  listJobs: read("v2/jobs", "v1/jobs", { lists: page("job") }),
  createJob: write(
    "POST",
    { path: "v2/jobs", body: rename("agent_name", "extract_template_name") },
    "v1/jobs",
    { mints: [mint("job", "id")], takes: [inBody("template", "agent_name")] },
  ),
  updateJob: write(
    "PATCH",
    "v2/jobs/{job}",
    "v1/jobs/{job}",
    { takes: [param("job", "job", true)] },
    { by: "job" },
  ),
  deleteJob: write(
    "DELETE",
    "v2/jobs/{job}",
    "v1/jobs/{job}",
    { takes: [param("job", "job", true)] },
    { by: "job" },
  ),
  triggerJob: write(
    "POST",
    "v2/jobs/{job}/runs",
    "v1/jobs/{job}/runs",
    {
      takes: [param("job", "job")],
      mints: [mint("run", "id")],
    },
    { by: "job" },
  ),
  getJobRun: read(
    "v2/jobs/runs/{run}",
    "v1/jobs/{job}/runs/{run}",
    { ...JOB_RUN, mints: [mint("artifact", "artifact_ids[]")] },
    { by: "run" },
  ),
  cancelJobRun: write(
    "POST",
    "v2/jobs/runs/{run}/cancel",
    "v1/jobs/{job}/runs/{run}/cancel",
    { takes: [param("run", "run", true)] },
    {
      by: "run",
    },
  ),
  listArtifacts: read(
    "v2/jobs/runs/{run}/artifacts",
    "v1/jobs/{job}/runs/{run}/artifacts",
    {
      ...JOB_RUN,
      mints: [mint("artifact", "items[].id")],
    },
    { by: "run" },
  ),
  artifactPreview: read(
    "v2/jobs/runs/{run}/artifacts/{artifact}/preview",
    "v1/jobs/{job}/runs/{run}/artifacts/{artifact}/preview",
    ARTIFACT,
    { by: "run" },
  ),
  // A media download is a task: its result names the file (read with getTaskResults).
  mediaAsync: write("POST", "v2/media/async", "v1/media/async", TASK_ID, {
    callback: { url: "callback_url" },
  }),
} satisfies Record<string, Route>;

export type RouteName = keyof typeof ROUTES;

/** The routes of a capability, for documentation: "POST /v2/extract · POST /v1/extract". */
export function routeLabel(name: RouteName): string {
  const route: Route = ROUTES[name];
  return ([2, 1] as const)
    .flatMap((g) => (route[g] ? [`${route.method} /${route[g].path}`] : []))
    .join(" · ");
}
