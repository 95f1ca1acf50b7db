/**
 * Google GenAI: `mcpToTool` wraps an MCP client (the SDK's, as its docs show) into a Gemini tool:
 * `tool()` gives the function declarations sent to Gemini, and `callTool([functionCall])` runs the
 * model's function calls (here scripted) and gives the `functionResponse` parts that go back to
 * the model. Gemini reads a subset of JSON Schema, so the conversion check also wants every enum
 * typed and every limit and default stated in the field's description (issue 22 item 1).
 */
import { type CallableTool, type FunctionDeclaration, mcpToTool } from "@google/genai";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import type { McpResult } from "./forwarded.js";
import type { Servers, TransportName } from "./servers.js";
import { describeFramework, type Session } from "./suite.js";

type Property = {
  type?: string;
  enum?: unknown[];
  description?: string;
  default?: unknown;
  minimum?: number;
  maximum?: number;
  minLength?: number;
  maxLength?: number;
  minItems?: number;
  maxItems?: number;
  items?: Property;
};

const LIMITS = ["minimum", "maximum", "minLength", "maxLength", "minItems", "maxItems"] as const;

/** What Gemini would not learn from a field: an untyped enum, a limit or default not in its description. */
function geminiGaps(tool: string, field: string, p: Property): string[] {
  const gaps: string[] = [];
  const description = p.description ?? "";
  if (p.enum && p.type !== "string") gaps.push(`${tool}.${field}: enum without type "string"`);
  if (p.items?.enum && p.items.type !== "string") gaps.push(`${tool}.${field}[]: enum without type "string"`);
  for (const limit of LIMITS) {
    const value = p[limit];
    if (value !== undefined && !description.includes(String(value)))
      gaps.push(`${tool}.${field}: ${limit} ${value} not in its description`);
  }
  if (p.default !== undefined && !/default/i.test(description))
    gaps.push(`${tool}.${field}: default not in its description`);
  return gaps;
}

function declarationGaps(declarations: FunctionDeclaration[]): string[] {
  return declarations.flatMap((d) => {
    const schema = d.parametersJsonSchema as { properties?: Record<string, Property> } | undefined;
    return Object.entries(schema?.properties ?? {}).flatMap(([field, p]) =>
      geminiGaps(d.name ?? "?", field, p),
    );
  });
}

/** The SDK (1.x) client that `mcpToTool` wraps, as the GenAI docs show. */
async function sdkClient(transport: TransportName, servers: Servers): Promise<Client> {
  const client = new Client({ name: "clients-suite-gemini", version: "0.0.0" });
  if (transport === "http") await client.connect(new StreamableHTTPClientTransport(new URL(servers.httpUrl)));
  else await client.connect(new StdioClientTransport({ ...servers.stdio, stderr: "ignore" }));
  return client;
}

describeFramework({
  name: "Google GenAI mcpToTool",
  async connect(transport, servers): Promise<Session> {
    const client = await sdkClient(transport, servers);
    const tool: CallableTool = mcpToTool(client);
    const declarations = (await tool.tool()).functionDeclarations ?? [];
    return {
      toolNames: declarations.map((d) => d.name ?? ""),
      conversionProblems: () => declarationGaps(declarations),
      async call(name: string, args: Record<string, unknown>) {
        const [part] = await tool.callTool([{ name, args }]);
        const response = part.functionResponse?.response as { error?: McpResult } & McpResult;
        return { toModel: response, mcp: response?.error ?? response };
      },
      close: () => client.close(),
    };
  },
  cannot: {
    progress: "mcpToTool's callTool passes no progress callback (only a timeout) to the MCP client",
    cancel: "mcpToTool's callTool takes no abort signal: a Gemini function call cannot be cancelled",
  },
});
