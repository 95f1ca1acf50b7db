/**
 * `run_agent`: runs a pre-built agent. Params are checked against the agent's
 * `input_properties` before any run request; a wrong call is answered with the agent's own
 * parameter descriptions and examples. One page runs on the sync `POST /v1/agents/run`; with
 * `pages` > 1 each page is submitted to `POST /v1/agent/async` (pagination field incremented),
 * waited for with progress and deadline, and the pages' `data.parsing` are merged.
 */
import { z } from "zod";
import { AGENT_FORMATS } from "../api/schemas.js";
import { type MergedRun, pagesOutputShape, runAgentPages } from "./agent-execute.js";
import { agentCatalog, assertParams, MAX_PAGES, pageParams, resolveAgent } from "./agent-run.js";
import { clip, longToolShape, maxCharsArg, pendingResult, plural } from "./result.js";
import { defineTool } from "./tool.js";

export const runAgent = defineTool({
  name: "run_agent",
  title: "Run an agent",
  description:
    "Run a pre-built extraction agent (find one and its params with list_agents) for its structured data.",
  toolset: "agents",
  routes: ["runAgent", "runAgentAsync"],
  examples: [{ agent: "ecommerce_product_page", params: { url: "https://shop.example.com/p/123" } }],
  input: () => ({
    agent: z.string().min(1).describe("Agent name"),
    params: z
      .record(z.string(), z.unknown())
      .default({})
      .describe("The agent's params (list_agents {name} shows them)"),
    formats: z.array(z.enum(AGENT_FORMATS)).optional().describe("Also return page bodies"),
    pages: z.number().int().min(1).max(MAX_PAGES).default(1).describe("Result pages to fetch"),
    max_chars: maxCharsArg(),
  }),
  output: () => ({ ...longToolShape(), ...pagesOutputShape() }),
  readOnly: true,
  longRunning: true,
  async handler(args, ctx) {
    const agent = await resolveAgent(agentCatalog(ctx), args.agent, ctx.signal);
    const params = assertParams(agent, args.params);
    const list = pageParams(agent, params, args.pages);
    const run = await runAgentPages(ctx, agent, list, args.formats);
    if (run.pending) {
      const pending = pendingResult(run.pending, { agent: agent.detail.name, tasks: run.tasks });
      const pages = run.tasks.map((t) => `page ${t.page}: ${t.task_id}`).join(", ");
      return { ...pending, text: `${pending.text}\nEvery page's task (read each with get_task): ${pages}` };
    }
    return shape(agent.detail.name, run, args.max_chars, agent.compiled.notes);
  },
});

function shape(name: string, run: MergedRun, maxChars: number, notes: string[]) {
  const structured: z.input<z.ZodObject<ReturnType<typeof pagesOutputShape>>> & { status: "done" } = {
    status: "done",
    agent: name,
    parsing: run.parsing,
    pages: run.provenance,
  };
  if (run.task_id) structured.task_id = run.task_id;
  if (run.tasks.length > 0) structured.tasks = run.tasks;
  if (run.failures.length > 0) structured.failures = run.failures;
  const lines = [
    `Agent ${name}: ${plural(run.provenance.length, "page")}, ${plural(itemCount(run.parsing), "item")}.`,
  ];
  for (const f of run.failures) lines.push(`Page ${f.page} failed: ${f.error}`);
  const json = clip(JSON.stringify(run.parsing ?? null, null, 1), maxChars);
  lines.push(json.text);
  if (json.next_offset !== undefined)
    lines.push(`… (${json.total_chars} chars in all; the full data is in structuredContent)`);
  if (run.content) {
    const body = clip(run.content, maxChars);
    // In both parts: a framework hands its model one or the other (src/tools/page-format.ts).
    structured.content = body.text;
    structured.chars = body.text.length;
    lines.push("", body.text);
  }
  if (notes.length > 0) {
    structured.notes = notes;
    lines.push("", `Notes: ${notes.join("; ")}`);
  }
  return { structured, text: lines.join("\n") };
}

/**
 * What a person calls the items of a result: the records of its lists (arrays of objects), or
 * the one record it is (a product page with four image URLs is one item, not four).
 */
function itemCount(parsing: unknown): number {
  const isRecord = (v: unknown) => typeof v === "object" && v !== null && !Array.isArray(v);
  if (Array.isArray(parsing)) return parsing.length;
  if (!isRecord(parsing)) return 0;
  const lists = Object.values(parsing as object).filter((v) => Array.isArray(v) && v.some(isRecord));
  return lists.length > 0 ? lists.reduce((n: number, v: unknown[]) => n + v.length, 0) : 1;
}
