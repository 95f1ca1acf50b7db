// The SDK floor: the MCP SDK's own low-level `Server` on its stdio transport answering `initialize`
// and a one-tool `tools/list`, nothing else (no config, no logging, no guard). The peers bench
// bundles it the way scripts/bundle.mjs bundles the CLI (one file, the same start-path plugin) and
// spawns it beside the node floor: what start-up costs with the SDK parsing every message, before
// any code of ours.
import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import { ListToolsRequestSchema } from "@modelcontextprotocol/sdk/types.js";

const server = new Server(
  { name: "sdk-floor", version: "0" },
  {
    capabilities: { tools: {} },
    // The start-path plugin stubs the SDK's Ajv default out; elicitation (its only user) is not used.
    jsonSchemaValidator: { getValidator: () => (data) => ({ valid: true, data, errorMessage: undefined }) },
  },
);
const TOOLS = [{ name: "echo", description: "Echo", inputSchema: { type: "object", properties: {} } }];
server.setRequestHandler(ListToolsRequestSchema, () => ({ tools: TOOLS }));
// Not awaited at the top level: the peers bench also bundles this file as CommonJS.
void server.connect(new StdioServerTransport());
