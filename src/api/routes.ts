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
 */
import type { RequestKind } from "./retry.js";

type Obj = Record<string, any>;

export interface RouteSide {
  path: string;
  body?: (body: any) => unknown;
  read?: (answer: unknown) => unknown;
}

export interface Route {
  method: "GET" | "POST" | "DELETE" | "PATCH";
  kind: RequestKind;
  1?: RouteSide;
  2?: RouteSide;
  by?: string;
  mints?: (answer: any) => unknown[];
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

const read = (path: string): Route => ({ method: "GET", kind: "read", 1: { path } });
const byId = (by: string, v1: string | undefined, v2: string | undefined): Route => ({
  method: "GET",
  kind: "read",
  by,
  ...(v1 ? { 1: { path: v1 } } : {}),
  ...(v2 ? { 2: { path: v2 } } : {}),
});

export const ROUTES = {
  // search and extract
  serp: { method: "POST", kind: "submission", 2: { path: "v2/serp" } },
  extract: { method: "POST", kind: "submission", 1: { path: "v1/extract" } },
  extractAsync: { method: "POST", kind: "submission", 1: { path: "v1/extract/async" }, mints: taskId },
  extractBatch: { method: "POST", kind: "submission", 1: { path: "v1/extract/batch" }, mints: batchIds },

  // tasks and batches
  getTask: byId("id", "v1/tasks/{id}", undefined),
  getTaskResults: byId("id", "v1/tasks/{id}/results", undefined),
  listTasks: read("v1/tasks"),
  listBatches: read("v1/batches"),
  getBatch: byId("id", "v1/batches/{id}", undefined),
  getBatchProgress: byId("id", "v1/batches/{id}/progress", undefined),

  // agents (generation-1 names) and extract templates
  listAgents: read("v1/agents"),
  getAgent: read("v1/agents/{name}"),
  runAgent: { method: "POST", kind: "submission", 1: { path: "v1/agents/run" } },
  runAgentAsync: { method: "POST", kind: "submission", 1: { path: "v1/agent/async" }, mints: taskId },
  agentsAsync: { method: "POST", kind: "submission", 1: { path: "v1/agents/async" }, mints: taskId },
  agentsBatch: { method: "POST", kind: "submission", 1: { path: "v1/agents/batch" }, mints: batchIds },
  runTemplate: { method: "POST", kind: "submission", 2: { path: "v2/extract/templates/run" } },
  templatesBatch: {
    method: "POST",
    kind: "submission",
    2: { path: "v2/extract/templates/batch" },
    mints: batchIds,
  },
  listTemplateVersions: { method: "GET", kind: "read", 2: { path: "v2/extract/templates/{name}/versions" } },

  // crawl and map
  crawl: { method: "POST", kind: "submission", 1: { path: "v1/crawl" }, mints: (a: Obj) => [a?.crawl_id] },
  getCrawl: byId("id", "v1/crawl/{id}", undefined),
  mapAsync: { method: "POST", kind: "submission", 1: { path: "v1/map/async" }, mints: taskId },

  // domain health and knowledge (health is generation 1 only, read-only, retried like a GET)
  checkDomainHealth: { method: "POST", kind: "read", 1: { path: "v1/domain-health/check" } },
  domainDriver: read("v1/domain-knowledge/driver"),

  // jobs
  jobRuns: { method: "GET", kind: "read", 2: { path: "v2/jobs/{job}/runs" } },
  artifactDownloadUrl: {
    method: "GET",
    kind: "read",
    2: { path: "v2/jobs/runs/{run}/artifacts/{artifact}/download-url" },
  },

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
  updateTemplate: write("PATCH", "v2/extract/templates/{name}"),
  deleteTemplate: write("DELETE", "v2/extract/templates/{name}"),
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
