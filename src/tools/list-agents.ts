/**
 * `list_agents`: the agent catalog, filtered (privacy, managed_by, a text match on
 * name/description/domain/vertical) as a compact listing; with `name`, that agent's full input
 * description. Served from the catalog cache (`GET /v1/agents`, `GET /v1/agents/{name}`); under
 * the server's shared key without another user's templates (`ToolContext.visible`).
 */
import { z } from "zod";
import { describeInputs } from "../agents/compile.js";
import { agentExampleParams, exampleLine } from "../agents/example-params.js";
import type { AgentRecord } from "../api/schemas.js";
import { agentCatalog, type ResolvedAgent, resolveAgent, type VisibleAgents } from "./agent-run.js";
import { defineTool } from "./tool.js";

const MANAGED_BY = ["vendor", "community", "self_managed"] as const;
const LIST_MAX_AGE_MS = 60 * 60_000;

/** Listed agent: name, display_name, domain, vertical, managed_by, is_public, description. */
const row = () => z.looseObject({ name: z.string() });
type Row = {
  name: string;
  display_name: string;
  domain?: string;
  vertical?: string;
  managed_by?: string;
  is_public?: boolean;
  description?: string;
};

const short = (s: string | null | undefined, n = 100) =>
  !s ? undefined : s.length > n ? `${s.slice(0, n - 1).trimEnd()}…` : s;

function matches(a: AgentRecord, text: string): boolean {
  const hay = [a.name, a.display_name, a.description, a.domain, a.vertical]
    .filter(Boolean)
    .join(" ")
    .toLowerCase();
  return text
    .toLowerCase()
    .split(/\s+/)
    .filter(Boolean)
    .every((w) => hay.includes(w));
}

const input = () => ({
  name: z.string().min(1).optional().describe("Get this agent's params"),
  query: z.string().optional().describe("Words to match"),
  privacy: z.enum(["public", "private", "all"]).default("all").describe("Which agents to list"),
  managed_by: z.enum(MANAGED_BY).optional().describe("Only agents managed by"),
  limit: z.number().int().min(1).max(200).default(50).describe("Agents per page"),
  offset: z.number().int().min(0).default(0).describe("Agents to skip"),
});
type Args = z.output<z.ZodObject<ReturnType<typeof input>>>;

export const listAgents = defineTool({
  name: "list_agents",
  title: "List agents",
  description:
    "Find pre-built extraction agents by site, vertical or purpose; name gives one agent's params and an example call for run_agent.",
  toolset: "agents",
  routes: ["listAgents", "getAgent"],
  examples: [{ query: "product" }, { name: "ecommerce_product_page" }],
  input,

  output: () => ({
    total: z.number(),
    agents: z.array(row()),
    next_offset: z.number().optional(),
    agent: z
      .looseObject({ name: z.string(), params: z.array(z.looseObject({ name: z.string() })) })
      .optional()
      .describe("With name: the agent, its params (rules, examples), example_params, output_fields"),
  }),
  readOnly: true,
  async handler(args, ctx) {
    const catalog = agentCatalog(ctx);
    // The catalog is the key's, shared by its callers: under the shared key, another user's
    // templates are left out per call (the cache keeps them all).
    const { visible } = ctx;
    const visibleNames: VisibleAgents | undefined = visible && ((names) => visible("template", names));
    if (args.name) return describeAgent(await resolveAgent(catalog, args.name, ctx.signal, visibleNames));
    const listed = await catalog.ensureList({ signal: ctx.signal, maxAgeMs: LIST_MAX_AGE_MS });
    const shown = visibleNames && (await visibleNames(listed.map((a) => a.name)));
    return listPage(shown ? listed.filter((a) => shown.has(a.name)) : listed, args);
  },
});

function compact(a: AgentRecord, descriptionChars = 100): Row {
  return {
    name: a.name,
    display_name: a.display_name,
    ...(a.domain ? { domain: a.domain } : {}),
    ...(a.vertical ? { vertical: a.vertical } : {}),
    ...(a.managed_by ? { managed_by: a.managed_by } : {}),
    is_public: a.is_public,
    ...(a.description ? { description: short(a.description, descriptionChars) } : {}),
  };
}

/** One agent in full: its params (rules, examples), a complete example call and its output fields. */
function describeAgent({ detail, compiled }: ResolvedAgent) {
  const example = agentExampleParams(detail, compiled);
  const agent = {
    ...compact(detail, 400),
    params: compiled.params.properties.map(paramRow),
    // Only a complete example: a call missing a required param is never shown.
    ...(example.missing.length === 0 ? { example_params: example.params } : {}),
    output_fields: Object.keys(detail.output_schema ?? {}),
    ...(compiled.params.paginationParam ? { pagination_param: compiled.params.paginationParam } : {}),
    ...(compiled.notes.length > 0 ? { notes: compiled.notes } : {}),
  };
  const text = [
    `${detail.name} — ${detail.display_name}${detail.domain ? ` (${detail.domain})` : ""}`,
    detail.description ?? "",
    "Params:",
    describeInputs(compiled),
    exampleLine("run_agent", (params) => ({ agent: detail.name, params }), example),
    agent.output_fields.length > 0 ? `Output fields: ${agent.output_fields.join(", ")}` : "",
    compiled.params.paginationParam ? `Paginated by "${compiled.params.paginationParam}": use pages.` : "",
  ].filter(Boolean);
  return { structured: { total: 1, agents: [], agent }, text: text.join("\n") };
}

/** A param as `describeAgent` shows it (a default only when there is one). */
function paramRow(p: ResolvedAgent["compiled"]["params"]["properties"][number]) {
  return {
    name: p.name,
    type: p.type,
    required: p.required,
    description: p.description,
    rules: p.rules,
    examples: p.examples,
    ...(p.default !== null && p.default !== undefined ? { default: p.default } : {}),
    pagination: p.is_pagination_param,
    localization: p.is_localization_param,
  };
}

/** The agents that pass the filters, one page of them, one line each. */
function listPage(agents: readonly AgentRecord[], args: Args) {
  const hits = agents.filter(
    (a) =>
      (args.privacy === "all" || a.is_public === (args.privacy === "public")) &&
      (!args.managed_by || a.managed_by === args.managed_by) &&
      (!args.query || matches(a, args.query)),
  );
  const page = hits.slice(args.offset, args.offset + args.limit).map((a) => compact(a));
  const next = args.offset + page.length < hits.length ? args.offset + page.length : undefined;
  const lines = [`${hits.length} agent${hits.length === 1 ? "" : "s"} match; showing ${page.length}:`];
  for (const a of page) {
    const where = [a.domain, a.vertical, a.managed_by, a.is_public ? undefined : "private"].filter(Boolean);
    lines.push(`- ${a.name}: ${a.display_name}${where.length ? ` (${where.join(", ")})` : ""}`);
  }
  if (next !== undefined) lines.push(`More: offset ${next}.`);
  lines.push('Next: list_agents {"name": "<agent>"} for its params.');
  return {
    structured: { total: hits.length, agents: page, ...(next !== undefined ? { next_offset: next } : {}) },
    text: lines.join("\n"),
  };
}
