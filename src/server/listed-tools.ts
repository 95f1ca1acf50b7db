/**
 * What this server answers to `tools/list` right now, byte for byte as a client gets it (the
 * compacted, cached list of tool-list.ts), without a client: for the agent tool-list sidecar and
 * for the stdio fast front's check of what it answered before the server was loaded.
 */
import type { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import type { ListToolsResult } from "@modelcontextprotocol/sdk/types.js";
import type { Extra } from "./run-tool.js";
import { requestHandlers } from "./sdk-handlers.js";

export async function listedTools(server: McpServer): Promise<ListToolsResult> {
  const handler = requestHandlers(server)?.get("tools/list");
  if (!handler) throw new Error("this server has no tools/list handler");
  return (await handler({ method: "tools/list" }, {} as Extra)) as ListToolsResult;
}
