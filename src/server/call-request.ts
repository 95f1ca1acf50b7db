/** The `tools/call` request as this server reads it (light: loaded before the tools are). */
import { type CallToolRequest, ErrorCode, McpError } from "@modelcontextprotocol/sdk/types.js";
import { z } from "zod";

const kind = (v: unknown) => (v === null ? "null" : Array.isArray(v) ? "an array" : `a ${typeof v}`);

/**
 * The `tools/call` request schema this server registers its handler with: ahead of the SDK's own
 * `CallToolRequestSchema` check (which still runs), a request whose `name` is not a string or whose
 * `arguments` is not an object is refused with a `-32602` a person can read, not a zod dump.
 */
export const CallRequestSchema = z.object({
  method: z.literal("tools/call"),
  params: z.unknown().transform((params) => {
    const p = (typeof params === "object" && params !== null ? params : {}) as Record<string, unknown>;
    if (typeof p.name !== "string") {
      throw new McpError(
        ErrorCode.InvalidParams,
        `tools/call needs "name", the tool's name as a string (got ${kind(p.name)}); see tools/list.`,
      );
    }
    if (
      p.arguments !== undefined &&
      (typeof p.arguments !== "object" || p.arguments === null || Array.isArray(p.arguments))
    ) {
      throw new McpError(
        ErrorCode.InvalidParams,
        `tools/call "arguments" must be an object of the tool's arguments by name (got ${kind(p.arguments)}), e.g. {"query": "coffee"}.`,
      );
    }
    return params as CallToolRequest["params"];
  }),
});
