/**
 * LangChain: `@langchain/mcp-adapters` loads the tools and LangGraph's `ToolNode` runs them the
 * way a LangGraph agent does after its chat model answers with tool calls (here a scripted
 * AIMessage carrying `tool_calls`); what reaches the model is the ToolMessage's content.
 */
import { AIMessage, type ToolMessage } from "@langchain/core/messages";
import { ToolNode } from "@langchain/langgraph/prebuilt";
import { MultiServerMCPClient } from "@langchain/mcp-adapters";
import type { McpResult } from "./forwarded.js";
import { type CallOptions, describeFramework, type Session } from "./suite.js";

let callId = 0;

/**
 * The MCP result behind a ToolMessage: its text (ToolNode hands the model the adapter's one text
 * block, structuredContent included, as a JSON string) and the structuredContent artifact.
 */
function mcpOf(message: ToolMessage): McpResult {
  const content = message.content;
  let blocks = (
    typeof content === "string" ? [{ type: "text", text: content }] : content
  ) as McpResult["content"];
  if (typeof content === "string" && content.startsWith("{")) {
    try {
      const block = JSON.parse(content) as { type?: string; text?: string };
      if (block.type === "text" && typeof block.text === "string")
        blocks = [{ type: "text", text: block.text }];
    } catch {
      // plain text
    }
  }
  const artifact = (Array.isArray(message.artifact) ? message.artifact : []) as Array<{
    type: string;
    data?: unknown;
  }>;
  return {
    content: blocks,
    structuredContent: artifact.find((a) => a.type === "mcp_structured_content")?.data,
  };
}

describeFramework({
  name: "LangChain MCP adapters + LangGraph ToolNode",
  async connect(transport, servers): Promise<Session> {
    let progress: (() => void) | undefined;
    const connection =
      transport === "stdio"
        ? { transport: "stdio" as const, ...servers.stdio, restart: { enabled: false } }
        : { transport: "http" as const, url: servers.httpUrl, reconnect: { enabled: false } };
    const client = new MultiServerMCPClient({
      throwOnLoadError: true,
      prefixToolNameWithServerName: false,
      useStandardContentBlocks: true,
      onProgress: () => progress?.(),
      mcpServers: { "web-data": connection },
    });
    const tools = await client.getTools();
    const node = new ToolNode(tools);
    return {
      toolNames: tools.map((t) => t.name),
      async call(tool: string, args: Record<string, unknown>, options: CallOptions = {}) {
        progress = options.onProgress;
        const id = `call_${++callId}`;
        const modelTurn = new AIMessage({ content: "", tool_calls: [{ id, name: tool, args }] });
        const out = (await node.invoke({ messages: [modelTurn] }, { signal: options.signal })) as {
          messages: ToolMessage[];
        };
        const message = out.messages[0];
        return { toModel: message.content, mcp: mcpOf(message) };
      },
      close: () => client.close(),
    };
  },
});
