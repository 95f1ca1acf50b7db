// The call floor: the MCP SDK's own low-level `Server` on its stdio transport with one
// `tools/call` handler that makes `extract_page`'s API request through the project's client and
// shapes the page as extract_page does (`shapePage`), nothing else: no argument or result check,
// no deadline signal, no redaction, no logging, no guard. What a call costs with the SDK parsing
// every message before any per-call code of ours (docs/benchmarks.md, issue 33, per call).
// Env: WEBDATA_BASE_URL, WEBDATA_API_KEY.
import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import { CallToolRequestSchema, ListToolsRequestSchema } from "@modelcontextprotocol/sdk/types.js";
import { WebDataClient } from "../dist/api/client.js";
import { shapePage } from "../dist/tools/page-format.js";

const api = new WebDataClient({
  baseUrl: process.env.WEBDATA_BASE_URL,
  apiKey: process.env.WEBDATA_API_KEY,
  maxRps: 1_000_000,
});
const server = new Server(
  { name: "call-floor", version: "0" },
  {
    capabilities: { tools: {} },
    jsonSchemaValidator: { getValidator: () => (data) => ({ valid: true, data, errorMessage: undefined }) },
  },
);
const TOOLS = [
  { name: "extract_page", description: "Extract", inputSchema: { type: "object", properties: {} } },
];
server.setRequestHandler(ListToolsRequestSchema, () => ({ tools: TOOLS }));
server.setRequestHandler(CallToolRequestSchema, async (request, extra) => {
  const { url } = request.params.arguments;
  const result = await api.extract({ url, render: false, formats: ["markdown"] }, { signal: extra.signal });
  const page = shapePage(result, 20_000);
  return {
    content: [{ type: "text", text: page.text }],
    structuredContent: { status: "done", ...page.structured },
  };
});
void server.connect(new StdioServerTransport());
