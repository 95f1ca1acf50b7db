/**
 * Turns a `ToolDefinition` into an MCP tool. Short tools are plain `registerTool` tools with the
 * call's deadline. Long tools are task-capable (`execution.taskSupport: "optional"`): a client
 * that asks for a task gets one it can poll, list and cancel; a client that does not gets the
 * bounded wait (`WEBDATA_WAIT_MS`) with progress and cancellation, and a resumable handle at the
 * deadline. This is the one generic place for that; tool files know nothing of it.
 */
import type {
  CreateTaskRequestHandlerExtra,
  TaskRequestHandlerExtra,
  ToolTaskHandler,
} from "@modelcontextprotocol/sdk/experimental/tasks";
import type { McpServer, RegisteredTool } from "@modelcontextprotocol/sdk/server/mcp.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { linkSignals } from "../api/abort.js";
import { type ToolDefinition, toolAnnotations } from "../tools/tool.js";
import { type Extra, runTool, type ToolDeps } from "./run-tool.js";
import type { ToolTaskStore } from "./tasks.js";
import { inputSchema, outputSchema } from "./tool-schemas.js";

/** How long work started as an MCP task the client asked for may run (ms). */
export const TASK_WAIT_MS = 15 * 60_000;
/** How long a task's record and result are kept when the client names no TTL (ms). */
export const TASK_TTL_MS = 60 * 60_000;

type TaskWriter = Pick<ToolTaskStore, "getTask" | "updateTaskStatus" | "storeTaskResult">;

export interface RegisterDeps extends ToolDeps {
  taskStore: ToolTaskStore;
}

const progressTokenOf = (extra: Extra) => extra._meta?.progressToken;

export function registerDefinedTool(
  server: McpServer,
  tool: ToolDefinition,
  deps: RegisterDeps,
): RegisteredTool {
  const base = {
    title: tool.title,
    description: tool.description,
    // Built once: given a raw shape, the SDK would build a new z.object on every call.
    inputSchema: inputSchema(tool),
    outputSchema: outputSchema(tool),
    annotations: toolAnnotations(tool),
  };
  if (!tool.longRunning) {
    return server.registerTool(tool.name, base, (args: unknown, extra: Extra) =>
      runTool(tool, args, deps, {
        signal: extra.signal,
        deadline: Date.now() + deps.config.waitMs,
        progressToken: progressTokenOf(extra),
        sendNotification: extra.sendNotification,
      }),
    );
  }
  const handler = {
    async createTask(args: unknown, extra: CreateTaskRequestHandlerExtra) {
      const task = await extra.taskStore.createTask({ ttl: extra.taskRequestedTtl ?? TASK_TTL_MS });
      const implicit = deps.taskStore.isImplicit(task.taskId);
      const controller = deps.taskStore.controllerFor(task.taskId);
      // An implicit task lives as long as the call: the call's cancellation stops it.
      const linked = implicit ? linkSignals([controller.signal, extra.signal]) : undefined;
      const signal = linked?.signal ?? controller.signal;
      const deadline =
        Date.now() + (implicit ? deps.config.waitMs : Math.max(deps.config.waitMs, TASK_WAIT_MS));
      const work = runTool(tool, args, deps, {
        signal,
        deadline,
        progressToken: progressTokenOf(extra),
        sendNotification: extra.sendNotification,
      })
        .then((result) => finish(task.taskId, result, signal, implicit ? deps.taskStore : extra.taskStore))
        .finally(() => linked?.dispose());
      if (!implicit) return { task };
      // The call waits anyway: finish the work here and hand the SDK a task that has already
      // ended, so it answers at once instead of re-reading the store on a timer.
      await work;
      return { task: (await deps.taskStore.getTask(task.taskId)) ?? task };
    },
    async getTask(_args: unknown, extra: TaskRequestHandlerExtra) {
      return await extra.taskStore.getTask(extra.taskId);
    },
    async getTaskResult(_args: unknown, extra: TaskRequestHandlerExtra) {
      return (await extra.taskStore.getTaskResult(extra.taskId)) as CallToolResult;
    },
  };
  return server.experimental.tasks.registerToolTask(
    tool.name,
    { ...base, execution: { taskSupport: "optional" } },
    handler as unknown as ToolTaskHandler<typeof base.inputSchema>,
  );

  /** Stores the outcome; an implicit task uses the bare store (no status notifications). */
  async function finish(taskId: string, result: CallToolResult, signal: AbortSignal, store: TaskWriter) {
    try {
      if (signal.aborted) {
        // Cancelled: a terminal state ends the SDK's own polling of an implicit task.
        const current = await store.getTask(taskId);
        if (current && current.status === "working") await store.updateTaskStatus(taskId, "cancelled");
        return;
      }
      await store.storeTaskResult(taskId, result.isError ? "failed" : "completed", result);
    } catch (error) {
      deps.log.debug(`task ${taskId} could not be finished`, { reason: String(error) });
    }
  }
}
