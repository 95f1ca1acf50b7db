/**
 * What this server answers to `tools/list` right now, byte for byte as a client gets it (the
 * compacted, cached list of tool-list.ts), without a client: for the agent tool-list sidecar and
 * for the stdio fast front's check of what it answered before the server was loaded.
 */
import type { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import type { ListToolsResult } from "@modelcontextprotocol/sdk/types.js";

type Handler = (request: unknown, extra: unknown) => Promise<unknown>;

export async function listedTools(server: McpServer): Promise<ListToolsResult> {
  // The SDK keeps request handlers in a private map (tool-list.ts wraps the same entry).
  const handlers = (server.server as unknown as { _requestHandlers?: Map<string, Handler> })._requestHandlers;
  const handler = handlers?.get("tools/list");
  if (!handler) throw new Error("this server has no tools/list handler");
  return (await handler({ method: "tools/list" }, {})) as ListToolsResult;
}
