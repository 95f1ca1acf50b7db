/**
 * Running an agent: find it (with suggestions when the name is wrong), check its params in the
 * agent's own words before any run request, expand `pages` into one params object per page with
 * the pagination field incremented, and merge the pages' `data.parsing`.
 */

import type { AgentCatalog } from "../agents/catalog.js";
import { type CompiledAgent, checkParams, describeInputs } from "../agents/compile.js";
import { agentExampleParams } from "../agents/example-params.js";
import { createCatalog } from "../agents/service.js";
import type { WebDataClient } from "../api/client.js";
import type { AgentDetail } from "../api/schemas.js";
import type { Config } from "../config.js";
import { ToolError } from "./errors.js";
import type { ToolServices } from "./tool.js";

declare module "./tool.js" {
  interface ToolServices {
    /** The agent catalog, shared on the tool context (set by the agent tools' extension). */
    agents?: AgentCatalog;
  }
}

/** Catalogs `agentCatalog` made itself (no extension holds them): `closeOwnCatalog` closes them. */
const madeHere = new WeakSet<AgentCatalog>();

/** The server's catalog; a context without one (e.g. a bare test server) gets its own, kept. */
export function agentCatalog(ctx: {
  services: ToolServices;
  config: Config;
  client: WebDataClient;
}): AgentCatalog {
  if (!ctx.services.agents) {
    ctx.services.agents = createCatalog(ctx.config, ctx.client);
    madeHere.add(ctx.services.agents);
  }
  return ctx.services.agents;
}

/** Closes (and waits for) the catalog `agentCatalog` made for these services, if it made one. */
export async function closeOwnCatalog(services: ToolServices): Promise<void> {
  const catalog = services.agents;
  if (catalog && madeHere.delete(catalog)) await catalog.close();
}

export interface ResolvedAgent {
  detail: AgentDetail;
  compiled: CompiledAgent;
}

/** Of these agent names, those the caller may see (`ToolContext.visible` for templates); absent: all. */
export type VisibleAgents = (names: readonly string[]) => Promise<Set<string>>;

/**
 * The agent's details and schemas; a 404 becomes a `not_found` naming close matches. With
 * `visible`, an agent the caller may not see answers exactly like one that does not exist.
 */
export async function resolveAgent(
  catalog: AgentCatalog,
  name: string,
  signal?: AbortSignal,
  visible?: VisibleAgents,
): Promise<ResolvedAgent> {
  const unknown = async () => {
    const near = suggest(catalog, name);
    const close = visible ? [...(await visible(near))].filter((n) => near.includes(n)) : near;
    const hint = close.length > 0 ? ` Did you mean: ${close.join(", ")}?` : "";
    return new ToolError(
      "not_found",
      `There is no agent named "${name}".${hint} Use list_agents to find one.`,
    );
  };
  if (visible && !(await visible([name])).has(name)) throw await unknown();
  try {
    const detail = await catalog.detail(name, { signal });
    return { detail, compiled: catalog.compile(detail) };
  } catch (e) {
    if ((e as { code?: string }).code !== "not_found") throw e;
    throw await unknown();
  }
}

function suggest(catalog: AgentCatalog, name: string): string[] {
  const words = name
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter((w) => w.length >= 3);
  return (catalog.list() ?? [])
    .filter((a) => words.some((w) => a.name.toLowerCase().includes(w)))
    .slice(0, 5)
    .map((a) => a.name);
}

/**
 * The params to send, or `invalid_argument` with every problem and the agent's own input
 * description.
 */
export function assertParams(agent: ResolvedAgent, params: Record<string, unknown>): Record<string, unknown> {
  const check = checkParams(agent.compiled, params);
  if (check.ok) return check.params;
  const example = agentExampleParams(agent.detail, agent.compiled);
  throw new ToolError(
    "invalid_argument",
    [
      `The params for agent "${agent.detail.name}" are wrong (nothing was run):`,
      ...check.problems.map((p) => `- ${p}`),
      "",
      `Agent "${agent.detail.name}" takes:`,
      describeInputs(agent.compiled),
      ...(example.missing.length === 0 ? [`Example params: ${JSON.stringify(example.params)}`] : []),
    ].join("\n"),
    { fields: check.problems },
  );
}

export const MAX_PAGES = 20;

/** One params object per page: the pagination field starts at its given value (or default, or 1). */
export function pageParams(agent: ResolvedAgent, params: Record<string, unknown>, pages: number) {
  if (pages <= 1) return [params];
  const field = agent.compiled.params.paginationParam;
  if (!field) {
    throw new ToolError(
      "invalid_argument",
      `Agent "${agent.detail.name}" has no pagination param, so pages must be 1. ${describeInputs(agent.compiled)}`,
    );
  }
  const prop = agent.compiled.params.properties.find((p) => p.name === field);
  const given = params[field] ?? prop?.default ?? 1;
  const start = typeof given === "number" ? given : Number(given);
  if (!Number.isInteger(start)) {
    throw new ToolError(
      "invalid_argument",
      `pagination param "${field}" must be a whole number to run pages`,
    );
  }
  const asString = typeof params[field] === "string" || prop?.type === "string";
  const list = Array.from({ length: pages }, (_, i) => ({
    ...params,
    [field]: asString ? String(start + i) : start + i,
  }));
  return list.map((p) => assertParams(agent, p));
}

export interface PageOutcome {
  page: number;
  task_id?: string;
  status_code?: number;
  parsing: unknown;
}

/**
 * Merges the pages' parsing: members that are arrays on every page are concatenated in page
 * order; other members keep the first page's value. `items` in the provenance counts what each
 * page contributed to the arrays, so every item can be traced to its page.
 */
export function mergePages(pages: PageOutcome[]): {
  parsing: unknown;
  provenance: Array<{ page: number; task_id?: string; status_code?: number; items: number }>;
} {
  const provenance = pages.map((p) => ({
    page: p.page,
    ...(p.task_id ? { task_id: p.task_id } : {}),
    ...(p.status_code !== undefined ? { status_code: p.status_code } : {}),
    items: countItems(p.parsing),
  }));
  if (pages.length === 1) return { parsing: pages[0].parsing, provenance };
  if (pages.every((p) => Array.isArray(p.parsing))) {
    return { parsing: pages.flatMap((p) => p.parsing as unknown[]), provenance };
  }
  const objects = pages.map((p) => p.parsing).filter(isRecord);
  const merged: Record<string, unknown> = {};
  for (const obj of objects) {
    for (const [k, v] of Object.entries(obj)) {
      if (Array.isArray(v) && (merged[k] === undefined || Array.isArray(merged[k]))) {
        merged[k] = [...((merged[k] as unknown[] | undefined) ?? []), ...v];
      } else if (!(k in merged)) merged[k] = v;
    }
  }
  return { parsing: merged, provenance };
}

const isRecord = (v: unknown): v is Record<string, unknown> =>
  typeof v === "object" && v !== null && !Array.isArray(v);

function countItems(parsing: unknown): number {
  if (Array.isArray(parsing)) return parsing.length;
  if (!isRecord(parsing)) return 0;
  return Object.values(parsing).reduce<number>((n, v) => n + (Array.isArray(v) ? v.length : 0), 0);
}
