/**
 * `tools/call`, the one call path for plain and task-augmented calls (the SDK has parsed the
 * request by then). An unknown tool is a `-32602`; a task request for a tool without task support
 * is a `-32601` and runs nothing: protocol faults. Arguments are checked before anything runs
 * (`null` for an optional one is read as absent, a map given as JSON text is parsed; nested over
 * `MAX_ARGUMENT_DEPTH` levels is refused before zod sees it): bad ones are
 * a tool execution error, as the 2025-11-25 revision has it, an `invalid_argument` result
 * (`isError: true`) naming each argument so the model can correct itself; for a task request the
 * task is created already failed with that same result, so the model reads it from
 * `tasks/result` the way it reads every other outcome of a task. A plain call runs through `runTool` with the bounded wait
 * (`WEBDATA_WAIT_MS`); a task request creates the task through the SDK's `extra.taskStore`,
 * answers at once and runs the work in the background until it ends, is cancelled or its record
 * expires.
 */
import type { CallToolRequest, CallToolResult, CreateTaskResult } from "@modelcontextprotocol/sdk/types.js";
import { ErrorCode, McpError } from "@modelcontextprotocol/sdk/types.js";
import type { Principal } from "../principal.js";
import { depthProblem } from "../tools/argument-depth.js";
import { argumentProblems } from "../tools/argument-errors.js";
import { errorResult, invalidArguments } from "../tools/errors.js";
import { normalizeArgs } from "../tools/normalize-args.js";
import type { ToolDefinition } from "../tools/tool.js";
import type { CallScope, RequestScope } from "./call-scope.js";
import type { FairShare } from "./fair-share.js";
import { type Extra, runTool, type ToolArgs, type ToolDeps } from "./run-tool.js";
import { TASK_POLL_MS, TASK_WAIT_MS, type TaskWork, taskTtl } from "./tasks.js";
import { inputJsonSchema, inputSchema } from "./tool-schemas.js";

export interface CallDeps extends ToolDeps {
  work: TaskWork;
  /** Over HTTP: per-principal slots for calls, long calls and tasks, and the cap on MCP task records. */
  fairShare?: FairShare;
}

/**
 * Runs a call in one of its principal's slots (a long one also in a long slot), waiting in its
 * queue; a full queue is an error result. Without a principal or limits, runs at once.
 */
async function inSlot(
  tool: ToolDefinition,
  principal: Principal | undefined,
  deps: CallDeps,
  signal: AbortSignal,
  run: () => Promise<CallToolResult>,
): Promise<CallToolResult> {
  if (!principal || !deps.fairShare) return run();
  let release: () => void;
  try {
    release = await deps.fairShare.acquire(principal.id, signal, tool.longRunning === true);
  } catch (error) {
    return errorResult(error, deps.redact);
  }
  try {
    return await run();
  } finally {
    release();
  }
}

/** The tool's arguments checked (a bad one is the `invalid_argument` result naming it). */
export function checkArguments(
  tool: ToolDefinition,
  args: Record<string, unknown>,
  deps: Pick<ToolDeps, "redact">,
): { ok: true; data: ToolArgs } | { ok: false; result: CallToolResult } {
  const schema = inputSchema(tool);
  const normalized = normalizeArgs(schema, args);
  // Depth first, without recursion: zod and the wording of a bad value recurse into it.
  const tooDeep = depthProblem(normalized);
  const checked = tooDeep ? undefined : schema.safeParse(normalized);
  if (checked?.success) return { ok: true, data: checked.data };
  const problems = checked
    ? argumentProblems(checked.error, { tool: tool.name, json: inputJsonSchema(tool), args })
    : [tooDeep as string];
  return { ok: false, result: errorResult(invalidArguments(tool.name, problems), deps.redact) };
}

/**
 * The one runner of a plain call, for both revisions: checked arguments, the caller's slot for
 * long work, the bounded wait (`WEBDATA_WAIT_MS`: long work past it returns its resumable handle).
 */
export function runCall(
  tool: ToolDefinition,
  args: ToolArgs,
  deps: CallDeps,
  scope: CallScope,
): Promise<CallToolResult> {
  const callDeps = scope.log ? { ...deps, log: scope.log } : deps;
  const deadline = Date.now() + deps.config.waitMs;
  return inSlot(tool, scope.principal, deps, scope.signal, () =>
    runTool(tool, args, callDeps, { ...scope, deadline }),
  );
}

/** Protocol faults, before anything runs: an unknown tool, a task request for a tool without task support. */
function checkCallable(name: string, tool: ToolDefinition | undefined, task: unknown): ToolDefinition {
  if (!tool) {
    throw new McpError(
      ErrorCode.InvalidParams,
      `Unknown tool "${name}". Call tools/list for the tools this server has.`,
    );
  }
  if (task && !tool.longRunning) {
    throw new McpError(
      ErrorCode.MethodNotFound,
      `Tool ${name} does not support tasks (its execution.taskSupport is "forbidden"); call it without "task".`,
    );
  }
  return tool;
}

type TaskStore = NonNullable<Extra["taskStore"]>;

/** A task created already failed with `result` (bad arguments), read like any other task's outcome. */
async function failedTask(store: TaskStore, ttl: number, result: CallToolResult): Promise<CreateTaskResult> {
  const failed = await store.createTask({ ttl, pollInterval: TASK_POLL_MS });
  await store.storeTaskResult(failed.taskId, "failed", result);
  return { task: await store.getTask(failed.taskId) };
}

/** Creates the MCP task, answers at once, and runs the work in the background until it ends, is cancelled or expires. */
async function startTask(
  task: { tool: ToolDefinition; args: ToolArgs; store: TaskStore; ttl: number; sessionId?: string },
  deps: CallDeps,
  scope: CallScope,
): Promise<CreateTaskResult> {
  const { tool, store, sessionId } = task;
  const created = await store.createTask({ ttl: task.ttl, pollInterval: TASK_POLL_MS });
  const { signal, done } = deps.work.start(created.taskId, sessionId);
  const deadline = Date.now() + Math.max(deps.config.waitMs, TASK_WAIT_MS);
  void inSlot(tool, scope.principal, deps, signal, () =>
    runTool(tool, task.args, deps, { ...scope, signal, deadline }),
  )
    .then(async (result) => {
      // A cancelled or expired task keeps its state: nothing is stored for it.
      if (signal.aborted || (await deps.work.ended(created.taskId, sessionId))) return;
      await store.storeTaskResult(created.taskId, result.isError ? "failed" : "completed", result);
    })
    .catch((error) =>
      deps.log.debug(`task ${created.taskId} could not be finished`, { reason: String(error) }),
    )
    .finally(done);
  return { task: created };
}

/**
 * A `tools/call` on the 2025 path: `request` as the SDK parsed it, `extra` its handler's extra
 * (cancellation, progress, the task store), `scope` the request's scope (over HTTP: who it is
 * for; stdio: none).
 */
export async function callTool(
  request: Pick<CallToolRequest, "params">,
  extra: Extra,
  scope: RequestScope | undefined,
  found: ToolDefinition | undefined,
  deps: CallDeps,
): Promise<CallToolResult | CreateTaskResult> {
  const { name, arguments: args = {}, task } = request.params;
  const tool = checkCallable(name, found, task);
  const principal = scope?.principal;
  const store = task ? extra.taskStore : undefined;
  const ttl = task ? taskTtl(task.ttl, deps.config.taskMaxTtlMs) : 0;
  // Every record counts against its principal's cap, a failed one (bad arguments) too.
  if (store && principal && deps.fairShare) await deps.fairShare.admitTask(principal.id, ttl);
  const checked = checkArguments(tool, args, deps);
  if (!checked.ok) return store ? failedTask(store, ttl, checked.result) : checked.result;
  const callScope: CallScope = {
    principal,
    signal: extra.signal,
    progressToken: extra._meta?.progressToken,
    sendNotification: extra.sendNotification,
    tasks: {
      cancel: (taskId) => deps.work.cancel(taskId, extra.sessionId, "cancelled with the cancel tool"),
    },
    ...(scope?.hook ? { hook: scope.hook } : {}),
  };
  if (!store) return runCall(tool, checked.data, deps, callScope);
  return startTask({ tool, args: checked.data, store, ttl, sessionId: extra.sessionId }, deps, callScope);
}
