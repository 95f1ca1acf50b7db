/**
 * The README's "API routes" column (`src/tools/routes-by-tool.ts`) against what the tools really
 * call: every registry tool's examples run through the real server on the sandbox, once with
 * WEBDATA_API_GENERATION=2 and once with 1, and every API request a call makes must be one of the
 * routes listed for that tool on that generation (or a capability the table says has no route
 * there), or a task/batch/crawl poll of the one waiting mechanism.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ROUTES, type RouteName, type RouteSide } from "../../src/api/routes.js";
import type { Sandbox } from "../../src/sandbox/index.js";
import { ALL_TOOLS } from "../../src/tools/registry.js";
import {
  generation2Only,
  routesOf as toolRouteNames,
  toolRoutesCell,
  WAIT_ROUTES,
} from "../../src/tools/routes-by-tool.js";
import {
  call,
  requestsSince,
  type StdioServer,
  spawnAgainst,
  startTestSandbox,
  textOf,
} from "../helpers/mcp.js";

type Side = { 1?: RouteSide; 2?: RouteSide };

/** The route names (with the generation of the side) a request of the sandbox log matches. */
function routesOf(method: string, path: string): { name: RouteName; generation: 1 | 2 }[] {
  return (Object.keys(ROUTES) as RouteName[]).flatMap((name) =>
    ([1, 2] as const).flatMap((generation) => {
      const side = (ROUTES[name] as Side)[generation];
      if (!side || ROUTES[name].method !== method) return [];
      const pattern = new RegExp(`^/${side.path.replace(/\{\w+\}/g, "[^/]+")}$`);
      return pattern.test(path) ? [{ name, generation }] : [];
    }),
  );
}

/** Calls beyond the registry's examples, so more of each tool's listed routes run. */
const EXTRA: [string, Record<string, unknown>][] = [
  ["job_runs", {}],
  ["get_task", { limit: 2 }],
];

describe.each([2, 1] as const)("WEBDATA_API_GENERATION=%s: the routes each tool calls", (generation) => {
  let sandbox: Sandbox;
  let server: StdioServer;
  beforeAll(async () => {
    sandbox = await startTestSandbox();
    server = await spawnAgainst(sandbox, {
      WEBDATA_API_GENERATION: String(generation),
      WEBDATA_TOOLSETS: "all",
      WEBDATA_LEGACY_AUTH: "demo:demo",
      WEBDATA_LEGACY_BASE_URL: sandbox.legacyUrl,
    });
  });
  afterAll(async () => {
    await server?.close();
    await sandbox?.close();
  });

  it("every request of every tool's examples is a route its table cell names", async () => {
    const seen = new Map<string, Set<RouteName>>();
    const strays: string[] = [];
    const calls = [
      ...ALL_TOOLS.flatMap((t) => (t.examples ?? []).map((a) => [t.name, a] as [string, typeof a])),
      ...EXTRA,
    ];
    for (const [tool, args] of calls) {
      const from = sandbox.requests.length;
      const r = await call(server, tool, { ...args });
      if (generation === 1 && generation2Only(tool)) {
        expect(textOf(r), tool).toMatch(/^Error \[unsupported\]/);
        expect(requestsSince(sandbox, from), tool).toEqual([]);
        continue;
      }
      expect(r.isError, `${tool}: ${textOf(r)}`).toBeFalsy();
      const allowed = new Set<RouteName>([...toolRouteNames(tool), ...WAIT_ROUTES]);
      for (const q of requestsSince(sandbox, from)) {
        if (q.path.startsWith("/legacy/") || q.path.startsWith("/downloads/")) continue;
        const match = routesOf(q.method, q.path).find(
          (m) =>
            allowed.has(m.name) &&
            (m.generation === generation || (ROUTES[m.name] as Side)[generation] === undefined),
        );
        if (!match) strays.push(`${tool}: ${q.method} ${q.path} (table: ${toolRoutesCell(tool)})`);
        else if (toolRouteNames(tool).includes(match.name)) {
          seen.set(tool, (seen.get(tool) ?? new Set()).add(match.name));
        }
      }
    }
    expect(strays).toEqual([]);
    // Each tool with an API route was seen calling at least one of its listed routes (but
    // list_agents, which answers from the agent catalog the server read in the background).
    const silent = ALL_TOOLS.filter(
      (t) =>
        toolRouteNames(t.name).length > 0 &&
        !seen.has(t.name) &&
        t.name !== "list_agents" &&
        !(generation === 1 && generation2Only(t.name)),
    ).map((t) => t.name);
    expect(silent).toEqual([]);
  });
});

describe("the tools table's route cells", () => {
  it("name a route for every registry tool, and say when generation 1 has none", () => {
    for (const tool of ALL_TOOLS) expect(toolRoutesCell(tool.name), tool.name).not.toBe("");
    expect(toolRoutesCell("run_template")).toContain("gen 1: none");
    expect(toolRoutesCell("manage_template")).toContain("gen 1: none (refused: generation 2 only)");
    expect(toolRoutesCell("web_search")).toBe("gen 2: POST /v2/search<br>gen 1: POST /v1/search");
  });
});
