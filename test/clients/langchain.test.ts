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

/**
 * Blocks of a ToolMessage's content a chat model cannot take: a `file` block whose URL is not a
 * data URL (ChatOpenAI's Chat Completions conversion throws "URL file blocks with source_type url
 * must be formatted as a data URL"; the adapter makes one of each resource_link it keeps as content).
 */
function unsendable(message: ToolMessage): string[] {
  const blocks = Array.isArray(message.content) ? message.content : [];
  return blocks.flatMap((b) => {
    const block = b as { type?: string; source_type?: string; url?: string };
    return block.type === "file" && block.source_type === "url" && !block.url?.startsWith("data:")
      ? [`a file block with URL ${block.url} reaches the model (ChatOpenAI refuses it)`]
      : [];
  });
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
      // As docs/http-and-fleet.md configures it: a resource_link stays out of the model's content
      // (its URI is in the text) and is not read eagerly (standard blocks keep it a reference).
      useStandardContentBlocks: true,
      outputHandling: { resource_link: "artifact" },
      onProgress: () => progress?.(),
      mcpServers: { "web-data": connection },
    });
    const tools = await client.getTools();
    const node = new ToolNode(tools);
    const problems: string[] = [];
    return {
      toolNames: tools.map((t) => t.name),
      conversionProblems: () => problems,
      async call(tool: string, args: Record<string, unknown>, options: CallOptions = {}) {
        progress = options.onProgress;
        const id = `call_${++callId}`;
        const modelTurn = new AIMessage({ content: "", tool_calls: [{ id, name: tool, args }] });
        const out = (await node.invoke({ messages: [modelTurn] }, { signal: options.signal })) as {
          messages: ToolMessage[];
        };
        const message = out.messages[0];
        problems.push(...unsendable(message));
        return { toModel: message.content, mcp: mcpOf(message) };
      },
      close: () => client.close(),
    };
  },
});
