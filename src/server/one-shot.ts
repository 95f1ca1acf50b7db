/**
 * The `tools` and `call` commands: a real MCP client talks to the server in process through a
 * linked in-memory transport, so the shell sees exactly what an agent would.
 */
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import type { Config } from "../config.js";
import { ALL_TOOLS } from "../tools/registry.js";
import { createServer } from "./create-server.js";
import { VERSION } from "./version.js";

export async function withClient<T>(config: Config, fn: (client: Client) => Promise<T>): Promise<T> {
  const app = createServer({ config, stderrLevel: "warning" });
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  const client = new Client({ name: "web-data-mcp-cli", version: VERSION });
  try {
    await app.server.connect(serverSide);
    await client.connect(clientSide);
    await app.ready;
    return await fn(client);
  } finally {
    await client.close().catch(() => {});
    await app.close();
  }
}

/** One line per tool: `name  [toolset]  description`. */
export async function listToolsText(config: Config): Promise<string> {
  return withClient(config, async (client) => {
    const { tools } = await client.listTools();
    const width = Math.max(...tools.map((t) => t.name.length));
    return tools
      .map((t) => {
        const toolset =
          ALL_TOOLS.find((d) => d.name === t.name)?.toolset ?? (t.name.startsWith("agent_") ? "agents" : "");
        const line = (t.description ?? "").split("\n")[0];
        return `${t.name.padEnd(width)}  ${`[${toolset}]`.padEnd(12)}  ${line}`;
      })
      .join("\n");
  });
}

export async function callToolOnce(
  config: Config,
  name: string,
  args: Record<string, unknown>,
): Promise<CallToolResult> {
  return withClient(config, async (client) => {
    const result = await client.callTool({ name, arguments: args }, undefined, {
      timeout: config.waitMs + 30_000,
    });
    return result as CallToolResult;
  });
}
