/**
 * The API routes each tool calls, per generation, from the routes each tool declares
 * (`routes` in `defineTool`) and the client's route table: `npm run docs` puts them in the
 * README's tools table, and `test/e2e/routes-by-tool.e2e.test.ts` checks that every request a tool
 * makes on the sandbox is one of them. The polls of tasks, batches and crawls that any long tool
 * makes through the one waiting mechanism (`WAIT_ROUTES`) are declared by `get_task` only; the
 * agent catalog's reads, by `list_agents` and `run_agent`.
 */
import { ROUTES, type RouteName, type RouteSide } from "../api/routes.js";
import { ALL_TOOLS } from "./registry.js";

export { WAIT_ROUTES } from "../async/targets.js";

/** The routes a registry tool declares (none for a tool off the route table). */
export function routesOf(tool: string): readonly RouteName[] {
  return ALL_TOOLS.find((t) => t.name === tool)?.routes ?? [];
}

/** A tool's routes on one generation: `METHOD /path` each, in table order. */
export function toolRoutes(tool: string, generation: 1 | 2): string[] {
  return routesOf(tool).flatMap((n) => {
    const route = ROUTES[n] as { 1?: RouteSide; 2?: RouteSide; specV2?: true };
    const side = route[generation] ?? (route.specV2 ? route[2] : undefined);
    return side ? [`${ROUTES[n].method} /${side.path}`] : [];
  });
}

/** Every route of the tool is one generation 1 lacks altogether (refused there, `unsupported`). */
export function generation2Only(tool: string): boolean {
  const names = routesOf(tool);
  return names.length > 0 && names.every((n) => (ROUTES[n] as { generation2Only?: true }).generation2Only);
}

/** A tool's routes as one table cell: "gen 2: POST /v2/extract, …<br>gen 1: POST /v1/extract, …". */
export function toolRoutesCell(tool: string): string {
  if (tool === "get_social_event") return "legacy: POST {legacy}/api/v1/realtime/social/…";
  if (routesOf(tool).length === 0) return "";
  const two = toolRoutes(tool, 2);
  const one = toolRoutes(tool, 1);
  return [
    ...(two.length > 0 ? [`gen 2: ${two.join(", ")}`] : []),
    `gen 1: ${one.length > 0 ? one.join(", ") : generation2Only(tool) ? "none (refused: generation 2 only)" : "none (its gen-2 routes serve both)"}`,
  ].join("<br>");
}
