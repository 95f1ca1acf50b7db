/**
 * `manage_research_agent`: create (`POST /v2/agents`, from a template or from scratch), update
 * (`PATCH /v2/agents/{id}`, JSON Patch) or delete (soft: the agent starts no new runs) a
 * research agent; generation 1 `/v1/task-agents…` with `domain_expertise` for `skill`.
 */
import { z } from "zod";
import { EFFORTS, USE_CASES } from "../api/schemas-v2.js";
import { createOnce } from "./creation.js";
import { ToolError } from "./errors.js";
import { defineTool } from "./tool.js";

export const manageResearchAgent = defineTool({
  name: "manage_research_agent",
  title: "Create, change or delete a research agent",
  description:
    "Create, update (JSON Patch) or delete a research agent; see list_research_agents, run with research.",
  toolset: "manage",
  routes: ["createResearchAgent", "updateResearchAgent", "deleteResearchAgent"],
  examples: [{ action: "create", template: "market_research", agent_name: "tents_market" }],
  input: () => ({
    action: z.enum(["create", "update", "delete"]).describe("What to do"),
    agent_id: z.string().min(1).optional().describe("For update, delete"),
    template: z.string().min(1).optional().describe("create from this agent template"),
    agent_name: z.string().min(1).optional().describe("create: unique name"),
    display_name: z.string().optional().describe("create: shown name"),
    description: z.string().optional().describe("create: what it researches"),
    goals: z.array(z.string()).max(20).optional().describe("create: what to find out"),
    skill: z.string().optional().describe("create: domain expertise"),
    effort: z.enum(EFFORTS).optional().describe("create: depth of research"),
    use_case: z.enum(USE_CASES).optional().describe("create: kind of research"),
    output_schema: z.record(z.string(), z.unknown()).optional().describe("create: JSON Schema of the report"),
    patch: z
      .array(
        z.object({
          op: z.enum(["add", "remove", "replace"]).describe("JSON Patch op"),
          path: z.string().describe("e.g. /effort"),
          value: z.unknown().optional().describe("New value"),
        }),
      )
      .min(1)
      .max(50)
      .optional()
      .describe("update: JSON Patch"),
  }),
  output: () => ({ action: z.string(), agent_id: z.string() }),
  readOnly: false,
  destructive: true,
  async handler(args, ctx) {
    const opts = { signal: ctx.signal };
    const { action, agent_id, patch, skill, ...fields } = args;
    if (action === "create") {
      // The client takes the generation-1 name (domain_expertise); generation 2 sends skill.
      const body = { ...fields, ...(skill ? { domain_expertise: skill } : {}) };
      const agent = await createOnce(
        "research agent",
        "list_research_agents {} (a new agent at the top)",
        () => ctx.client.createResearchAgent(body, opts),
      );
      return {
        structured: { action, agent_id: agent.id },
        text: `Research agent ${agent.id} created. Run it: research {"agent_id":"${agent.id}","input":"…"}.`,
      };
    }
    if (!agent_id)
      throw new ToolError("invalid_argument", [`agent_id: needed to ${action} an agent`].join(" "));
    if (action === "delete") {
      await ctx.client.deleteResearchAgent(agent_id, opts);
      return {
        structured: { action, agent_id },
        text: `Research agent ${agent_id} deleted (its runs stay readable).`,
      };
    }
    if (!patch)
      throw new ToolError("invalid_argument", ["patch: the JSON Patch operations to apply"].join(" "));
    await ctx.client.updateResearchAgent(
      agent_id,
      patch.map((p) => (p.path === "/skill" ? { ...p, path: "/domain_expertise" } : p)),
      opts,
    );
    return { structured: { action, agent_id }, text: `Research agent ${agent_id} updated.` };
  },
});
