/**
 * The SDK's request handlers of one server, by method. The SDK keeps them in a private map, and
 * its public setter replaces a handler without handing back the one it replaces; wrapping one
 * (the tools/list cache, the tools/call front) or calling one without a client (`listedTools`)
 * needs the map. This is the one place that reaches into it: re-check it on SDK upgrades (the
 * fast-start, tool-list and fuzz tests fail if it moves).
 */
import type { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import type { Extra } from "./run-tool.js";

export type RequestHandler = (request: unknown, extra: Extra) => Promise<unknown>;

export function requestHandlers(server: McpServer): Map<string, RequestHandler> | undefined {
  return (server.server as unknown as { _requestHandlers?: Map<string, RequestHandler> })._requestHandlers;
}
