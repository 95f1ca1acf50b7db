/**
 * `tools/list` answered once and cached until the tool set changes, in a compact form: the SDK's
 * JSON Schemas without `$schema`, `propertyNames` of records, zod's implicit safe-integer bounds,
 * `type: "string"` beside an enum of strings (the enum already says it),
 * output-side `additionalProperties: false`, output descriptions and output structure below the
 * top-level members (their types stay; the structured content itself carries the rest), and without the default
 * `execution: {taskSupport: "forbidden"}`. Every tool's list entry costs tokens in every conversation; this keeps the whole
 * list small without touching the zod schemas the SDK validates with.
 */
import type { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import type { ListToolsResult, Tool } from "@modelcontextprotocol/sdk/types.js";
import { requestHandlers } from "./sdk-handlers.js";

type Json = Record<string, unknown>;

const isEmptyObject = (v: unknown) =>
  typeof v === "object" && v !== null && !Array.isArray(v) && Object.keys(v).length === 0;

const isStringEnum = (v: unknown) =>
  Array.isArray(v) && v.length > 0 && v.every((x) => typeof x === "string");

/** From this depth on an output schema keeps only each value's `type` (and `enum`). */
const OUTPUT_DEPTH = 1;

function prune(schema: unknown, output: boolean, depth = 0): unknown {
  if (Array.isArray(schema)) return schema.map((s) => prune(s, output, depth));
  if (typeof schema !== "object" || schema === null) return schema;
  const node = schema as Json;
  if (output && depth >= OUTPUT_DEPTH) {
    const kept: Json = {};
    if (node.type !== undefined && !(node.type === "string" && isStringEnum(node.enum)))
      kept.type = node.type;
    if (node.enum !== undefined) kept.enum = node.enum;
    return kept;
  }
  const out: Json = {};
  for (const [key, value] of Object.entries(node)) {
    if (key === "$schema" || key === "propertyNames") continue;
    if (key === "type" && value === "string" && isStringEnum(node.enum)) continue;
    if (output && key === "additionalProperties" && value === false) continue;
    if (output && key === "description") continue;
    // zod's integer bounds when none was given, and "anything" for record values: defaults.
    if ((key === "minimum" || key === "maximum") && Math.abs(value as number) === Number.MAX_SAFE_INTEGER)
      continue;
    if (key === "additionalProperties" && isEmptyObject(value)) continue;
    if (key === "properties" && typeof value === "object" && value !== null) {
      out.properties = Object.fromEntries(
        Object.entries(value as Json).map(([k, v]) => [k, prune(v, output, depth + 1)]),
      );
      continue;
    }
    if (key === "items" || key === "additionalProperties") {
      out[key] = prune(value, output, depth + 1);
      continue;
    }
    out[key] = typeof value === "object" ? prune(value, output, depth) : value;
  }
  return out;
}

export function compactTool(tool: Tool): Tool {
  const compact: Tool = { ...tool, inputSchema: prune(tool.inputSchema, false) as Tool["inputSchema"] };
  if (tool.outputSchema) compact.outputSchema = prune(tool.outputSchema, true) as Tool["outputSchema"];
  if (tool.execution?.taskSupport === "forbidden") delete compact.execution;
  return compact;
}

/** Wraps the SDK's `tools/list` handler of this server with the cache and the compaction. */
export function installToolListCache(server: McpServer): void {
  const handlers = requestHandlers(server);
  const original = handlers?.get("tools/list");
  if (!handlers || !original) return;
  let cached: Promise<ListToolsResult> | undefined;
  handlers.set("tools/list", (request, extra) => {
    cached ??= (original(request, extra) as Promise<ListToolsResult>).then((r) => ({
      ...r,
      tools: r.tools.map(compactTool),
    }));
    cached.catch(() => {
      cached = undefined;
    });
    return cached;
  });
  const notify = server.sendToolListChanged.bind(server);
  server.sendToolListChanged = () => {
    cached = undefined;
    notify();
  };
}
