/**
 * `tools/call` for the server's own tools, in front of the SDK's handler. Arguments are checked
 * here, synchronously: a bad one is an `invalid_argument` result that names each argument and
 * why, with the code under `_meta` like every other failure (the SDK's own check answers with
 * bare text). A call that did not ask for a task then runs directly through `runTool` — the
 * bounded wait with progress and cancellation for long tools, the result checked against the
 * output schema — instead of through the SDK's asynchronous checks and, for long tools, an
 * implicit task it would create, store and poll (./tasks.ts keeps that path working should this
 * front be missing). Task requests and anything unusual go on to the SDK unchanged.
 */
import type { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { argumentProblems, errorResult, invalidArguments } from "../tools/errors.js";
import type { ToolDefinition } from "../tools/tool.js";
import { runTool, type ToolDeps } from "./run-tool.js";
import { requestHandlers } from "./sdk-handlers.js";
import { inputSchema } from "./tool-schemas.js";

type Json = Record<string, unknown>;

const isObject = (v: unknown): v is Json => typeof v === "object" && v !== null && !Array.isArray(v);

/** The name and arguments of a request this front may answer; undefined leaves it to the SDK. */
function ownCall(request: unknown, tools: ReadonlyMap<string, ToolDefinition>) {
  if (!isObject(request) || !isObject(request.params)) return undefined;
  const { name, arguments: args, task } = request.params;
  if (typeof name !== "string" || task !== undefined) return undefined;
  if (args !== undefined && !isObject(args)) return undefined;
  const tool = tools.get(name);
  return tool ? { tool, args: args ?? {} } : undefined;
}

/** Wraps the SDK's `tools/call` handler of this server; `tools` holds every tool added through `addTool`, kept current. */
export function installToolCalls(
  server: McpServer,
  tools: ReadonlyMap<string, ToolDefinition>,
  deps: ToolDeps,
): void {
  const handlers = requestHandlers(server);
  const original = handlers?.get("tools/call");
  if (!handlers || !original) return;
  handlers.set("tools/call", async (request, extra) => {
    const own = ownCall(request, tools);
    if (!own) return original(request, extra);
    const checked = inputSchema(own.tool).safeParse(own.args);
    if (!checked.success) {
      return errorResult(invalidArguments(own.tool.name, argumentProblems(checked.error)), deps.redact);
    }
    return runTool(own.tool, checked.data, deps, {
      signal: extra.signal,
      deadline: Date.now() + deps.config.waitMs,
      progressToken: extra._meta?.progressToken,
      sendNotification: extra.sendNotification,
    });
  });
}
