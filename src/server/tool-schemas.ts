/** Each tool's zod objects, built once and shared by registration, argument and result checks. */
import { z } from "zod";
import type { ToolDefinition } from "../tools/tool.js";

const inputs = new WeakMap<ToolDefinition, z.ZodObject>();
const outputs = new WeakMap<ToolDefinition, z.ZodObject>();

function once(cache: WeakMap<ToolDefinition, z.ZodObject>, tool: ToolDefinition, shape: z.ZodRawShape) {
  let schema = cache.get(tool);
  if (!schema) {
    schema = z.object(shape);
    cache.set(tool, schema);
  }
  return schema;
}

export const inputSchema = (tool: ToolDefinition): z.ZodObject =>
  tool.inputObject ?? once(inputs, tool, tool.input);
export const outputSchema = (tool: ToolDefinition): z.ZodObject => once(outputs, tool, tool.output);
