/**
 * Vercel AI SDK: `@ai-sdk/mcp`'s client turns the listed tools into AI SDK tools and
 * `generateText` runs them for a scripted model (`MockLanguageModelV3` from `ai/test`): the model
 * asks for one tool call, the SDK runs it, and the model's next turn receives the tool result —
 * what reaches the model is that result part of its prompt.
 */
import { createMCPClient } from "@ai-sdk/mcp";
import { Experimental_StdioMCPTransport as StdioMCPTransport } from "@ai-sdk/mcp/mcp-stdio";
import { generateText, stepCountIs } from "ai";
import type { McpResult } from "./forwarded.js";
import { scriptedModel } from "./scripted-model.js";
import { type CallOptions, describeFramework, type Session } from "./suite.js";

describeFramework({
  name: "Vercel AI SDK (@ai-sdk/mcp + ai)",
  async connect(transport, servers): Promise<Session> {
    const client = await createMCPClient({
      transport:
        transport === "stdio"
          ? new StdioMCPTransport({ ...servers.stdio, stderr: "ignore" })
          : { type: "http", url: servers.httpUrl },
    });
    const tools = await client.tools();
    return {
      toolNames: Object.keys(tools),
      async call(tool: string, args: Record<string, unknown>, options: CallOptions = {}) {
        let part: { output?: unknown } | undefined;
        const result = await generateText({
          model: scriptedModel(tool, args, (p) => {
            part = p as typeof part;
          }),
          tools,
          prompt: "Use the web data tools.",
          stopWhen: stepCountIs(2),
          abortSignal: options.signal,
        });
        const output = result.steps[0]?.toolResults[0]?.output as McpResult | undefined;
        return { toModel: part?.output, mcp: output };
      },
      close: () => client.close(),
    };
  },
  cannot: {
    progress: "@ai-sdk/mcp 1.0 sends no progressToken and has no progress callback",
  },
  cancelStaysLocal: "@ai-sdk/mcp 1.0 sends no notifications/cancelled, so the server's work runs on",
});
