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
  method: "GET" | "POST" | "DELETE";
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
} satisfies Record<string, Route>;

export type RouteName = keyof typeof ROUTES;

/** The routes of a capability, for documentation: "POST /v2/extract · POST /v1/extract". */
export function routeLabel(name: RouteName): string {
  const route: Route = ROUTES[name];
  return ([2, 1] as const)
    .flatMap((g) => (route[g] ? [`${route.method} /${route[g].path}`] : []))
    .join(" · ");
}
