/**
 * Metric label values from closed sets: whatever a client sends (a method name, a tool name, a
 * protocol version, an error code), a series is only ever labelled with a known value or `other`,
 * so no client can grow the number of series. Spans keep the exact values (they are not series).
 * The tool names are handed in (the server's registry): telemetry knows nothing of the tools.
 */
import { SUPPORTED_PROTOCOL_VERSIONS } from "@modelcontextprotocol/sdk/types.js";

export const OTHER = "other";

const METHODS = new Set([
  "initialize",
  "ping",
  "tools/list",
  "tools/call",
  "resources/list",
  "resources/read",
  "resources/templates/list",
  "resources/subscribe",
  "resources/unsubscribe",
  "prompts/list",
  "prompts/get",
  "completion/complete",
  "logging/setLevel",
  "tasks/get",
  "tasks/result",
  "tasks/list",
  "tasks/cancel",
]);
const VERSIONS = new Set(SUPPORTED_PROTOCOL_VERSIONS);
const ERRORS = new Set([
  "tool_error",
  "connection_closed",
  "-32700",
  "-32600",
  "-32601",
  "-32602",
  "-32603",
  "-32000",
  "-32001",
  "-32002",
]);

const CLOSED: Record<string, ReadonlySet<string>> = {
  "mcp.method.name": METHODS,
  "gen_ai.prompt.name": new Set<string>(),
  "mcp.protocol.version": VERSIONS,
  "error.type": ERRORS,
};

/**
 * The attributes with every client-chosen value outside its closed set (for a tool name:
 * `toolNames`) replaced by `other`.
 */
export function closedLabels(
  attributes: Record<string, string>,
  toolNames: ReadonlySet<string>,
): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(attributes)) {
    const known = name === "gen_ai.tool.name" ? toolNames : CLOSED[name];
    out[name] = known && !known.has(value) ? OTHER : value;
  }
  return out;
}
