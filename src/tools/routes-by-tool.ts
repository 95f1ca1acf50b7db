/**
 * The API routes each tool submits to (or reads, for the read-only tools), per generation, from
 * the client's route table: `npm run docs` puts them in the README's tools table. A tool not
 * listed shows none. Polls of tasks, batches and crawls (`/v2/tasks`, `/v1/tasks`, …) are left out.
 */
import { ROUTES, type RouteName, type RouteSide } from "../api/routes.js";

export const TOOL_ROUTES: Record<string, RouteName[]> = {
  serp_search: ["serp"],
  extract_page: ["extract", "extractAsync"],
  extract_batch: ["extractBatch"],
  get_task: ["getTask", "listTasks"],
  list_agents: ["listAgents", "getAgent"],
  run_agent: ["runAgent", "runAgentAsync"],
  run_template: ["runTemplate", "templatesBatch", "listTemplateVersions"],
  crawl_site: ["crawl", "getCrawl"],
  map_site: ["map", "mapAsync"],
  check_domain_health: ["checkDomainHealth", "domainDriver"],
  job_runs: ["jobRuns", "listArtifacts", "artifactDownloadUrl"],
};

/** `METHOD /path` of one side of a route. */
const label = (method: string, side: RouteSide | undefined) => (side ? `${method} /${side.path}` : undefined);

/** A tool's routes as one table cell: "gen 2: POST /v2/extract, …<br>gen 1: POST /v1/extract, …". */
export function toolRoutesCell(tool: string): string {
  const names = TOOL_ROUTES[tool];
  if (!names) return tool === "get_social_event" ? "legacy: POST {legacy}/api/v1/realtime/social/…" : "";
  const side = (g: 1 | 2) =>
    names
      .map((n) => label(ROUTES[n].method, (ROUTES[n] as { 1?: RouteSide; 2?: RouteSide })[g]))
      .filter(Boolean);
  const parts = [
    ["gen 2", side(2)],
    ["gen 1", side(1)],
  ] as const;
  return parts
    .filter(([, list]) => list.length > 0)
    .map(([g, list]) => `${g}: ${list.join(", ")}`)
    .join("<br>");
}
