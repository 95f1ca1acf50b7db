/**
 * `tools/list` from tool definitions: one pure `listTools(tools)`, used by the server's handler, the
 * build-time list (scripts/tool-list.mjs) and the toolsnaps. The input schema is the one every model
 * API takes as it is (./input-schema.ts: OpenAI strict, Gemini, MCP). The output schema is
 * compacted: without `$schema`, `propertyNames` of records, zod's implicit safe-integer bounds,
 * `type: "string"` beside an enum of strings (the enum already says it), `additionalProperties:
 * false`, descriptions, and anything but an enum below the top-level members: their names and
 * closed value sets stay, their types and structure are in the structured content itself (issue
 * 29: 313 of the default list's tokens). Every tool's list entry costs tokens in every
 * conversation; this keeps the whole list small without touching the zod schemas arguments and
 * results are checked with.
 */
import type { Tool } from "@modelcontextprotocol/sdk/types.js";
import { z } from "zod";
import { type ToolDefinition, toolAnnotations } from "../tools/tool.js";
import { modelInputSchema } from "./input-schema.js";
import { inputJsonSchema, outputSchema } from "./tool-schemas.js";

type Json = Record<string, unknown>;

const isEmptyObject = (v: unknown) =>
  typeof v === "object" && v !== null && !Array.isArray(v) && Object.keys(v).length === 0;

const isStringEnum = (v: unknown) =>
  Array.isArray(v) && v.length > 0 && v.every((x) => typeof x === "string");

/** From this depth on an output schema keeps only each value's `type` (and `enum`). */
const OUTPUT_DEPTH = 1;

function prune(schema: unknown, depth = 0): unknown {
  if (Array.isArray(schema)) return schema.map((s) => prune(s, depth));
  if (typeof schema !== "object" || schema === null) return schema;
  const node = schema as Json;
  if (depth >= OUTPUT_DEPTH) return node.enum !== undefined ? { enum: node.enum } : {};
  const out: Json = {};
  for (const [key, value] of Object.entries(node)) {
    if (key === "$schema" || key === "propertyNames") continue;
    if (key === "type" && value === "string" && isStringEnum(node.enum)) continue;
    if (key === "additionalProperties" && value === false) continue;
    if (key === "description") continue;
    // Which members are always there is the structured content's business, not the model's.
    if (key === "required" && depth === 0) continue;
    // zod's integer bounds when none was given, and "anything" for record values: defaults.
    if ((key === "minimum" || key === "maximum") && Math.abs(value as number) === Number.MAX_SAFE_INTEGER)
      continue;
    if (key === "additionalProperties" && isEmptyObject(value)) continue;
    if (key === "properties" && typeof value === "object" && value !== null) {
      out.properties = Object.fromEntries(
        Object.entries(value as Json).map(([k, v]) => [k, prune(v, depth + 1)]),
      );
      continue;
    }
    if (key === "items" || key === "additionalProperties") {
      out[key] = prune(value, depth + 1);
      continue;
    }
    out[key] = typeof value === "object" ? prune(value, depth) : value;
  }
  return out;
}

/** A tool's output JSON Schema as the SDK's McpServer would list it (draft-7). */
const outputJson = (schema: z.ZodObject) =>
  z.toJSONSchema(schema, { target: "draft-7", io: "output" }) as Tool["outputSchema"];

const entries = new WeakMap<ToolDefinition, Tool>();

/** One tool's listed entry (built once per definition). */
export function toolEntry(tool: ToolDefinition): Tool {
  let entry = entries.get(tool);
  if (!entry) {
    entry = {
      name: tool.name,
      title: tool.title,
      description: tool.description,
      inputSchema: modelInputSchema(inputJsonSchema(tool)) as Tool["inputSchema"],
      outputSchema: prune(outputJson(outputSchema(tool))) as Tool["outputSchema"],
      annotations: toolAnnotations(tool),
    };
    if (tool.longRunning) entry.execution = { taskSupport: "optional" };
    entries.set(tool, entry);
  }
  return entry;
}

/**
 * Takes `listed` as these tools' entries when it names the same tools in the same order: the
 * build-time list (dist/tool-list.json, written by `listTools` from the same definitions in the same
 * build), which the server answered before its tools loaded. So the loaded server lists without
 * building any JSON Schema (zod's `toJSONSchema` of every tool was ~15 ms of a first call's wait).
 */
export function adoptEntries(tools: readonly ToolDefinition[], listed: readonly Tool[]): void {
  if (tools.length !== listed.length || tools.some((tool, i) => tool.name !== listed[i]?.name)) return;
  tools.forEach((tool, i) => {
    if (!entries.has(tool)) entries.set(tool, listed[i] as Tool);
  });
}

/** What `tools/list` answers for these tools, in order. */
export function listTools(tools: Iterable<ToolDefinition>): Tool[] {
  return [...tools].map(toolEntry);
}
