/** `list_research_agents`: research agents and agent templates (`GET /v2/agents`, `/v2/agents/templates`; generation 1 `/v1/task-agents…`). */
import { z } from "zod";
import { buildOnce } from "../api/lazy-schema.js";
import { defineTool } from "./tool.js";

const item = buildOnce(() => z.looseObject({ id: z.string() }));
const line = (a: Record<string, unknown>) =>
  `- ${a.id}${a.agent_name ? ` (${a.agent_name})` : a.template_name ? ` (template ${a.template_name})` : ""}: ${a.display_name ?? ""}${a.description ? ` — ${a.description}` : ""}${a.is_active === false ? " [deactivated]" : ""}`;

export const listResearchAgents = defineTool({
  name: "list_research_agents",
  title: "Research agents",
  description:
    "The account's research agents and the agent templates a new one can start from; run them with research.",
  toolset: "research",
  routes: ["listResearchAgents", "listAgentTemplates", "getResearchAgent"],
  examples: [{}],
  input: () => ({
    agent_id: z.string().min(1).optional().describe("One agent's detail: goals, sources, output schema"),
    limit: z.number().int().min(1).max(100).default(20).describe("Agents per page"),
    offset: z.number().int().min(0).default(0).describe("Agents to skip"),
  }),
  output: () => ({
    agents: z.array(item()).optional(),
    templates: z.array(item()).optional(),
    agent: item().optional(),
  }),
  readOnly: true,
  async handler(args, ctx) {
    const opts = { signal: ctx.signal };
    if (args.agent_id) {
      const agent = await ctx.client.getResearchAgent(args.agent_id, opts);
      return { structured: { agent: { ...agent } }, text: JSON.stringify(agent, null, 2) };
    }
    const page = { limit: args.limit, offset: args.offset };
    const [agents, templates] = await Promise.all([
      ctx.client.listResearchAgents(page, opts),
      ctx.client.listAgentTemplates(page, opts),
    ]);
    const a = agents.items.map((x) => ({ ...x }));
    const t = templates.items.map((x) => ({ ...x }));
    const text = [
      `Agents (${agents.total ?? a.length}):`,
      ...(a.length ? a.map(line) : ["(none yet: research creates one, or start from a template)"]),
      `Agent templates (${templates.total ?? t.length}):`,
      ...t.map(line),
    ].join("\n");
    return { structured: { agents: a, templates: t }, text };
  },
});
