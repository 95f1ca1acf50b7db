/**
 * The API routes each tool calls, per generation, from the client's route table: `npm run docs`
 * puts them in the README's tools table, and `test/e2e/routes-by-tool.e2e.test.ts` checks that
 * every request a tool makes on the sandbox is one of them. The polls of tasks, batches and
 * crawls that any long tool makes through the one waiting mechanism (`WAIT_ROUTES`) are listed
 * for `get_task` only; the agent catalog's reads, for `list_agents` and `run_agent`.
 */
import { ROUTES, type RouteName, type RouteSide } from "../api/routes.js";

/** What `waitFor` and the result collection read for any long tool (listed for `get_task`). */
export const WAIT_ROUTES: RouteName[] = [
  "getTask",
  "getTaskResults",
  "getBatch",
  "getBatchProgress",
  "getCrawl",
];

export const TOOL_ROUTES: Record<string, RouteName[]> = {
  serp_search: ["serp", "fastSerp", "serpBatch"],
  web_search: ["search"],
  extract_page: ["extract", "extractAsync"],
  extract_batch: ["extractBatch"],
  get_task: ["listTasks", "listCrawls", ...WAIT_ROUTES],
  list_agents: ["listAgents", "getAgent"],
  run_agent: ["runAgent", "runAgentAsync"],
  run_template: ["runTemplate", "templatesBatch", "listTemplateVersions"],
  generate_template: ["createGeneration", "getGeneration"],
  manage_template: ["updateTemplate", "deleteTemplate"],
  crawl_site: ["crawl", "getCrawl"],
  map_site: ["map", "mapAsync"],
  check_domain_health: ["checkDomainHealth", "domainDriver"],
  research: [
    "startOneShotResearch",
    "createResearchAgent",
    "startResearchRun",
    "getResearchRun",
    "researchEvents",
    "getResearchResult",
  ],
  list_research_agents: ["listResearchAgents", "listAgentTemplates", "getResearchAgent"],
  manage_research_agent: ["createResearchAgent", "updateResearchAgent", "deleteResearchAgent"],
  job_runs: ["listJobs", "jobRuns", "getJobRun", "listArtifacts", "artifactPreview", "artifactDownloadUrl"],
  manage_job: ["createJob", "updateJob", "deleteJob", "triggerJob"],
  cancel: ["cancelCrawl", "cancelJobRun"],
  download_media: ["mediaAsync"],
};

/** A tool's routes on one generation: `METHOD /path` each, in table order. */
export function toolRoutes(tool: string, generation: 1 | 2): string[] {
  return (TOOL_ROUTES[tool] ?? []).flatMap((n) => {
    const route = ROUTES[n] as { 1?: RouteSide; 2?: RouteSide; specV2?: true };
    const side = route[generation] ?? (route.specV2 ? route[2] : undefined);
    return side ? [`${ROUTES[n].method} /${side.path}`] : [];
  });
}

/** Every route of the tool is one generation 1 lacks altogether (refused there, `unsupported`). */
export function generation2Only(tool: string): boolean {
  const names = TOOL_ROUTES[tool] ?? [];
  return names.length > 0 && names.every((n) => (ROUTES[n] as { generation2Only?: true }).generation2Only);
}

/** A tool's routes as one table cell: "gen 2: POST /v2/extract, …<br>gen 1: POST /v1/extract, …". */
export function toolRoutesCell(tool: string): string {
  if (tool === "get_social_event") return "legacy: POST {legacy}/api/v1/realtime/social/…";
  if (!TOOL_ROUTES[tool]) return "";
  const two = toolRoutes(tool, 2);
  const one = toolRoutes(tool, 1);
  return [
    ...(two.length > 0 ? [`gen 2: ${two.join(", ")}`] : []),
    `gen 1: ${one.length > 0 ? one.join(", ") : generation2Only(tool) ? "none (refused: generation 2 only)" : "none (its gen-2 routes serve both)"}`,
  ].join("<br>");
}
