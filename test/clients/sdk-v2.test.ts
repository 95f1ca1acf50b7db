/**
 * The official MCP TypeScript SDK v2 client (`@modelcontextprotocol/client` 2.x) over its stdio and
 * Streamable HTTP transports, as a host application uses it: list, call with progress and an abort
 * signal. No model: a host that forwards the whole result hands the model its text content and
 * its structuredContent, so that is what the checks and the token table read. The whole flow runs
 * twice: the client's default (the 2025 `initialize` handshake, what it falls back to) and pinned
 * to revision 2026-07-28 (no `initialize`, no session; `server/discover` first).
 */
import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { StdioClientTransport } from "@modelcontextprotocol/client/stdio";
import type { McpResult } from "./forwarded.js";
import { type CallOptions, describeFramework, type Session } from "./suite.js";

const MODES = [
  { name: "MCP SDK v2 client (2025-11-25)", negotiation: undefined },
  { name: "MCP SDK v2 client (2026-07-28)", negotiation: { mode: { pin: "2026-07-28" } } },
] as const;

for (const { name, negotiation } of MODES)
  describeFramework({
    name,
    async connect(transport, servers): Promise<Session> {
      const client = new Client(
        { name: "clients-suite", version: "0.0.0" },
        negotiation ? { versionNegotiation: negotiation } : {},
      );
      await client.connect(
        transport === "stdio"
          ? new StdioClientTransport({ ...servers.stdio, stderr: "ignore" })
          : new StreamableHTTPClientTransport(new URL(servers.httpUrl)),
      );
      if (negotiation && client.getProtocolEra() !== "modern")
        throw new Error("did not negotiate 2026-07-28");
      const { tools } = await client.listTools();
      return {
        toolNames: tools.map((t) => t.name),
        async call(tool: string, args: Record<string, unknown>, options: CallOptions = {}) {
          const onProgress = options.onProgress;
          try {
            const result = await client.callTool(
              { name: tool, arguments: args },
              { signal: options.signal, ...(onProgress ? { onprogress: () => onProgress() } : {}) },
            );
            const forwarded = { content: result.content, structuredContent: result.structuredContent };
            return { toModel: forwarded, mcp: forwarded as McpResult };
          } catch (error) {
            if (options.signal?.aborted) throw error;
            // A protocol error: what a host can hand the model is its message.
            return { toModel: String(error) };
          }
        },
        close: () => client.close(),
      };
    },
  });
