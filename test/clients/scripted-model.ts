/**
 * A scripted AI SDK language model (`MockLanguageModelV3` from `ai/test`, which the AI SDK and
 * Mastra both run): its first turn asks for one tool call; its next turn, given the tool's
 * result, hands that result part to `received` (what reached the model) and closes with a text.
 */
import type { LanguageModelV3CallOptions, LanguageModelV3GenerateResult } from "@ai-sdk/provider";
import { MockLanguageModelV3 } from "ai/test";

const usage = {
  inputTokens: { total: 1, noCache: 1, cacheRead: 0, cacheWrite: 0 },
  outputTokens: { total: 1, text: 1, reasoning: 0 },
};

export function scriptedModel(
  toolName: string,
  args: Record<string, unknown>,
  received: (part: unknown) => void,
) {
  return new MockLanguageModelV3({
    provider: "openai",
    modelId: "gpt-4o",
    doGenerate: async (options: LanguageModelV3CallOptions): Promise<LanguageModelV3GenerateResult> => {
      const toolTurn = options.prompt.find((m) => m.role === "tool");
      if (!toolTurn) {
        return {
          content: [{ type: "tool-call", toolCallId: "call_1", toolName, input: JSON.stringify(args) }],
          finishReason: { unified: "tool-calls", raw: undefined },
          usage,
          warnings: [],
        };
      }
      received(toolTurn.content.find((p) => p.type === "tool-result"));
      return {
        content: [{ type: "text", text: "done" }],
        finishReason: { unified: "stop", raw: undefined },
        usage,
        warnings: [],
      };
    },
  });
}
