/**
 * Mastra: `@mastra/mcp`'s MCPClient lists the tools as Mastra tools and a Mastra `Agent` runs them
 * for a scripted model (`MockLanguageModelV3` from `ai/test`, which Mastra accepts as a model): the
 * model asks for one tool call, the agent runs it, and the model's next turn receives the result
 * as the tool's `toModelOutput` made it — what reaches the model: @mastra/mcp 2.0 hands it the
 * MCP text content while the output still carries it, else the structured content as JSON.
 */

import { Agent } from "@mastra/core/agent";
import { MCPClient } from "@mastra/mcp";
import type { McpResult } from "./forwarded.js";
import { scriptedModel } from "./scripted-model.js";
import { type CallOptions, describeFramework, type Session } from "./suite.js";

const SERVER = "web-data";

/** The MCP result behind a Mastra tool's output: the structuredContent, its content attached unseen. */
function mcpOf(output: unknown): McpResult | undefined {
  if (!output || typeof output !== "object") return undefined;
  const attached = Object.getOwnPropertySymbols(output)
    .map((k) => (output as Record<symbol, unknown>)[k])
    .find(Array.isArray) as McpResult["content"] | undefined;
  return attached ? { content: attached, structuredContent: output } : (output as McpResult);
}

/**
 * `restored`: what Mastra hands its model when the tool's output reaches the model after a trip
 * through JSON (a background task's result, a durable or evented run's step output, a stored
 * snapshot): the non-enumerable MCP content is gone, and @mastra/mcp's own `toModelOutput` then
 * gives the model the structured content as JSON.
 */
function mastra(restored: boolean) {
  describeFramework({
    name: restored
      ? "Mastra, result restored from JSON (background task, durable run)"
      : "Mastra (@mastra/mcp MCPClient + Agent)",
    async connect(transport, servers): Promise<Session> {
      let progress: (() => void) | undefined;
      const client = new MCPClient({
        id: `clients-suite-${restored ? "restored-" : ""}${transport}-${process.pid}`,
        servers: {
          [SERVER]:
            transport === "stdio"
              ? { ...servers.stdio, stderr: "ignore", enableProgressTracking: true }
              : { url: new URL(servers.httpUrl), enableProgressTracking: true },
        },
      });
      await client.progress.onUpdate(SERVER, () => progress?.());
      const tools = await client.listTools();
      let lastOutput: unknown;
      for (const tool of Object.values(tools)) {
        const execute = tool.execute!.bind(tool);
        tool.execute = async (...args: Parameters<typeof execute>) => {
          lastOutput = await execute(...args);
          return lastOutput;
        };
      }
      return {
        toolNames: Object.keys(tools).map((name) => name.slice(SERVER.length + 1)),
        async call(tool: string, args: Record<string, unknown>, options: CallOptions = {}) {
          progress = options.onProgress;
          lastOutput = undefined;
          let part: { output?: unknown } | undefined;
          const agent = new Agent({
            id: "researcher",
            name: "researcher",
            instructions: "Use the web data tools.",
            model: scriptedModel(`${SERVER}_${tool}`, args, (p) => {
              part = p as typeof part;
            }),
            tools,
          });
          await agent.generate("Go.", { maxSteps: 2, abortSignal: options.signal });
          if (options.signal?.aborted) throw options.signal.reason;
          const mcp = mcpOf(lastOutput);
          // A tool error reaches the model as the error's text either way: no output to restore.
          if (!restored || lastOutput === undefined) return { toModel: part?.output, mcp };
          const toModelOutput = tools[`${SERVER}_${tool}`]?.toModelOutput;
          const restoredOutput = JSON.parse(JSON.stringify(lastOutput ?? null));
          return { toModel: toModelOutput ? await toModelOutput(restoredOutput) : restoredOutput, mcp };
        },
        close: () => client.disconnect(),
      };
    },
    ...(restored
      ? {
          cannot: {
            "resource link reaches the model":
              "a restored result is the structured content: pages not inline are listed by task_id (get_task reads them); the webdata:// links are in the text and the content items",
          },
        }
      : {}),
  });
}

mastra(false);
mastra(true);
