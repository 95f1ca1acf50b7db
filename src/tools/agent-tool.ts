/**
 * The factory of the dedicated `agent_<name>` tools (`WEBDATA_AGENT_TOOLS`). With the agent's
 * details known, the input schema is exactly its `input_properties` (the arguments ARE the
 * params) and the output schema its `output_schema`. Without them yet (cold start, no cache),
 * the tool is listed with a permissive schema and the params are checked at call time against
 * the details fetched then; the extension swaps in the exact tool once they arrive.
 */
import { z } from "zod";
import { describeInputs } from "../agents/compile.js";
import { stripNulls } from "../agents/output-schema.js";
import { agentToolName } from "../agents/tool-name.js";
import { runAgentPages } from "./agent-execute.js";
import { agentCatalog, assertParams, type ResolvedAgent, resolveAgent } from "./agent-run.js";
import { clip, DEFAULT_MAX_CHARS } from "./result.js";
import { defineTool, type ToolDefinition } from "./tool.js";

function firstSentences(text: string | null | undefined, max = 160): string {
  if (!text) return "";
  const s = text.match(/^.*?[.!?](\s|$)(.*?[.!?](\s|$))?/)?.[0]?.trim() ?? text;
  return s.length > max ? `${s.slice(0, max - 1).trimEnd()}…` : s;
}

const isRecord = (v: unknown): v is Record<string, unknown> =>
  typeof v === "object" && v !== null && !Array.isArray(v);

/** A dedicated agent tool (its input object included); `known` absent = permissive, checked at call time. */
export function defineAgentTool(name: string, known?: ResolvedAgent): ToolDefinition {
  const detail = known?.detail;
  const exactOutput = known?.compiled.output.exact === true;
  const outputShape: z.ZodRawShape = exactOutput
    ? known.compiled.output.schema.shape
    : { parsing: z.unknown().optional().describe("The agent's data.parsing") };
  const about = detail
    ? `${firstSentences(detail.description) || detail.display_name}${detail.domain ? ` (${detail.domain.replace(/^https?:\/\//, "")})` : ""}`
    : `Runs the "${name}" agent.`;
  const paginated = known?.compiled.params.paginationParam;
  // Strict when known (tools/list shows additionalProperties: false); loose keeps every argument.
  const input = known ? known.compiled.params.schema : z.looseObject({});
  const tool = defineTool({
    name: agentToolName(name),
    title: detail?.display_name ?? `Agent ${name}`,
    description: `${about} Arguments are the agent's params${paginated ? `; "${paginated}" selects the page` : ""}.`,
    toolset: "agents",
    input: () => input.shape,
    inputObject: input,
    output: () => outputShape,
    readOnly: true,
    async handler(args, ctx) {
      const params = { ...(args as Record<string, unknown>) };
      const agent = await resolveAgent(agentCatalog(ctx), name, ctx.signal);
      const run = await runAgentPages(ctx, agent, [assertParams(agent, params)]);
      const parsing = run.parsing;
      const clean = stripNulls(parsing);
      let structured: Record<string, unknown>;
      if (!exactOutput) structured = { parsing };
      else if (isRecord(clean)) {
        // Only declared top-level fields: clients check structuredContent against the schema.
        structured = Object.fromEntries(Object.entries(clean).filter(([k]) => k in outputShape));
      } else structured = {};
      const json = clip(JSON.stringify(parsing ?? null, null, 1), DEFAULT_MAX_CHARS);
      const lines = [`Agent ${name}${run.task_id ? ` (task ${run.task_id})` : ""}:`, json.text];
      if (json.next_offset !== undefined) lines.push(`… (${json.total_chars} chars in all)`);
      if (!known) lines.push("", "Params of this agent:", describeInputs(agent.compiled));
      return { structured, text: lines.join("\n") };
    },
  });
  return tool;
}
