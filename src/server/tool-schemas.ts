/**
 * Each tool's zod objects, built once and shared by listing, argument and result checks. The
 * input object is strict: a misspelt argument name is an error naming the nearest real one, not
 * silently dropped.
 */
import { z } from "zod";
import type { ToolDefinition } from "../tools/tool.js";

type Json = Record<string, unknown>;

const inputs = new WeakMap<ToolDefinition, z.ZodObject>();
const outputs = new WeakMap<ToolDefinition, z.ZodObject>();
const inputJson = new WeakMap<ToolDefinition, Json>();

function once(
  cache: WeakMap<ToolDefinition, z.ZodObject>,
  tool: ToolDefinition,
  make: () => z.ZodObject,
): z.ZodObject {
  let schema = cache.get(tool);
  if (!schema) {
    schema = make();
    cache.set(tool, schema);
  }
  return schema;
}

/**
 * `make()` built with zod's compiled parsers (a `new Function` fast path per object schema), which
 * the stdio server turns off for the whole process (./zod-jitless.ts). A tool's argument and
 * result objects are parsed on every call, and compiled they cost a warm call 45–90 µs less CPU,
 * with no cost before V8 has optimised them (docs/benchmarks.md, issue 33). Synchronous, so
 * nothing else is built in between.
 */
function compiled(make: () => z.ZodObject): () => z.ZodObject {
  return () => {
    const jitless = z.config().jitless;
    z.config({ jitless: false });
    try {
      return make();
    } finally {
      z.config({ jitless });
    }
  };
}

export const inputSchema = (tool: ToolDefinition): z.ZodObject =>
  tool.inputObject ??
  once(
    inputs,
    tool,
    compiled(() => z.strictObject(tool.input)),
  );
export const outputSchema = (tool: ToolDefinition): z.ZodObject =>
  once(
    outputs,
    tool,
    compiled(() => z.object(tool.output)),
  );

/** The input side's JSON Schema exactly as zod writes it (draft-7): limits, defaults, formats. */
export function inputJsonSchema(tool: ToolDefinition): Json {
  let json = inputJson.get(tool);
  if (!json) {
    json = z.toJSONSchema(inputSchema(tool), { target: "draft-7", io: "input" }) as Json;
    inputJson.set(tool, json);
  }
  return json;
}
