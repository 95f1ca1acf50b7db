/**
 * Registers a dedicated agent tool with its input as a zod OBJECT: strict (exact
 * `additionalProperties: false` in tools/list) when the agent's params are known, loose
 * (every argument kept for the call-time check) when not. `host.addTool` takes raw shapes only,
 * which can express neither, so this does the same as its plain (not long-running) path: the
 * SDK's `registerTool` with the shared `runTool` (context, output check, error results, redaction).
 */
import type { RegisteredTool } from "@modelcontextprotocol/sdk/server/mcp.js";
import { z } from "zod";
import { redact } from "../api/redact.js";
import { configSecrets } from "../config.js";
import { type Extra, runTool, type ToolDeps } from "../server/run-tool.js";
import { type ServerHost, type ToolDefinition, toolAnnotations } from "../tools/tool.js";

export function registerAgentTool(
  host: ServerHost,
  tool: ToolDefinition,
  input: z.ZodObject,
): RegisteredTool {
  const secrets = configSecrets(host.config);
  const deps: ToolDeps = {
    config: host.config,
    client: host.client,
    services: host.services,
    log: host.log,
    redact: (text) => redact(text, secrets),
  };
  const config = {
    title: tool.title,
    description: tool.description,
    inputSchema: input,
    outputSchema: z.object(tool.output),
    annotations: toolAnnotations(tool),
  };
  const handler = (args: unknown, extra: Extra) =>
    runTool(tool, args, deps, {
      signal: extra.signal,
      deadline: Date.now() + host.config.waitMs,
      progressToken: extra._meta?.progressToken,
      sendNotification: extra.sendNotification,
    });
  return host.server.registerTool(tool.name, config, handler as never);
}
