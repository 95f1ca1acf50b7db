/**
 * MCP tasks for long tools, through the SDK's public `TaskStore` interface only. `TaskWork` wraps
 * any store (the SDK's in-memory one by default, a shared one such as Redis when given) and adds
 * what the work needs: an abort per task, fired when the task is cancelled here or a shared store
 * says it was cancelled elsewhere (`cancelledElsewhere`), and a watch that fires it when the
 * record is cancelled elsewhere unannounced or expires (its TTL ran out), so no work keeps
 * polling upstream with no record left to cancel it. A cancelled task has no result: `tasks/result`
 * then answers with a clear `-32602`, not an internal error.
 */

import type { CreateTaskOptions, TaskStore } from "@modelcontextprotocol/sdk/experimental/tasks";
import {
  ErrorCode,
  McpError,
  type Request,
  type RequestId,
  type Result,
  type Task,
} from "@modelcontextprotocol/sdk/types.js";
import { type Clock, realClock } from "../clock.js";

/** Poll interval suggested to clients for a task (ms). */
export const TASK_POLL_MS = 1000;
/** How long a task's record and result are kept when the client names no TTL (ms). */
export const TASK_TTL_MS = 60 * 60_000;
/**
 * The shortest TTL a task gets (ms): a client asking for less gets this. The work of a task whose
 * record expires is aborted, so a TTL shorter than the work would only waste the call.
 */
export const MIN_TASK_TTL_MS = 60_000;
/** How long work started as an MCP task may run (ms). */
export const TASK_WAIT_MS = 15 * 60_000;
/** How often running work checks that its record still exists and is not cancelled (ms). */
const WATCH_MS = 1000;
/**
 * The same check when the store announces cancels (Redis pub/sub): only a fallback for a lost
 * message and the record's expiry, so it costs the shared store less.
 */
export const ANNOUNCED_WATCH_MS = 10_000;

/** The longest TTL a task gets unless configured (`WEBDATA_TASK_MAX_TTL_MS`): 24 h. */
export const MAX_TASK_TTL_MS = 24 * 3_600_000;

/**
 * The TTL a task gets: the client's, between `MIN_TASK_TTL_MS` and `max`; `TASK_TTL_MS` when none
 * was asked. The created task reports it, so a client sees a clamped TTL.
 */
export function taskTtl(requested: number | null | undefined, max = MAX_TASK_TTL_MS): number {
  const ceiling = Math.max(MIN_TASK_TTL_MS, max);
  return Math.min(ceiling, Math.max(MIN_TASK_TTL_MS, requested ?? TASK_TTL_MS));
}

const TERMINAL = new Set<Task["status"]>(["completed", "failed", "cancelled"]);

const MAX_STATUS_MESSAGE = 200;

/** The first line of a failed result's text, short enough for a status line. */
export function failureMessage(result: Result): string {
  const content = (result as { content?: Array<{ type: string; text?: string }> }).content ?? [];
  const text = content.find((c) => c.type === "text" && c.text?.trim())?.text?.trim() ?? "";
  const line = text.split("\n")[0] ?? "";
  if (line === "") return "The tool call failed; tasks/result has the details.";
  return line.length > MAX_STATUS_MESSAGE ? `${line.slice(0, MAX_STATUS_MESSAGE - 1)}…` : line;
}

export class TaskWork implements TaskStore {
  private readonly controllers = new Map<string, AbortController>();
  /** The session each running task's work belongs to. */
  private readonly sessions = new Map<string, string>();

  constructor(
    private readonly inner: TaskStore,
    private readonly watchMs = WATCH_MS,
    private readonly clock: Clock = realClock,
  ) {}

  createTask(params: CreateTaskOptions, requestId: RequestId, request: Request, sessionId?: string) {
    return this.inner.createTask(params, requestId, request, sessionId);
  }

  getTask(taskId: string, sessionId?: string) {
    return this.inner.getTask(taskId, sessionId);
  }

  async storeTaskResult(taskId: string, status: "completed" | "failed", result: Result, sessionId?: string) {
    this.controllers.delete(taskId);
    // The store keeps a status message across the final transition, so a failed task says why.
    if (status === "failed")
      await this.inner.updateTaskStatus(taskId, "working", failureMessage(result), sessionId);
    await this.inner.storeTaskResult(taskId, status, result, sessionId);
  }

  async getTaskResult(taskId: string, sessionId?: string): Promise<Result> {
    const task = await this.inner.getTask(taskId, sessionId);
    if (task?.status === "cancelled") {
      throw new McpError(
        ErrorCode.InvalidParams,
        `Task ${taskId} was cancelled, so it has no result. Call the tool again to start new work.`,
      );
    }
    return this.inner.getTaskResult(taskId, sessionId);
  }

  async updateTaskStatus(taskId: string, status: Task["status"], message?: string, sessionId?: string) {
    await this.inner.updateTaskStatus(taskId, status, message, sessionId);
    if (status === "cancelled") this.abort(taskId, "task cancelled");
  }

  listTasks(cursor?: string, sessionId?: string) {
    return this.inner.listTasks(cursor, sessionId);
  }

  /**
   * The signal of a task's work: aborted when the task is cancelled or its record is gone. Call
   * the returned `done` when the work ends.
   */
  start(taskId: string, sessionId?: string): { signal: AbortSignal; done(): void } {
    const controller = new AbortController();
    this.controllers.set(taskId, controller);
    if (sessionId !== undefined) this.sessions.set(taskId, sessionId);
    const watching = new AbortController();
    void this.#watch(taskId, sessionId, watching.signal);
    return {
      signal: controller.signal,
      done: () => {
        watching.abort();
        if (this.controllers.get(taskId) === controller) this.controllers.delete(taskId);
        this.sessions.delete(taskId);
      },
    };
  }

  /** Every `watchMs` until `stop`: aborts the work when the record is gone or cancelled. */
  async #watch(taskId: string, sessionId: string | undefined, stop: AbortSignal): Promise<void> {
    for (;;) {
      try {
        await this.clock.sleep(this.watchMs, stop);
      } catch {
        return;
      }
      const task = await this.inner.getTask(taskId, sessionId).catch(() => "unread" as const);
      if (!task) this.abort(taskId, "task record expired");
      else if (task !== "unread" && task.status === "cancelled") this.abort(taskId, "task cancelled");
    }
  }

  /**
   * The task was cancelled on another replica (its store's notice, e.g. Redis pub/sub): its work
   * here, if any, stops now rather than at the next watch of the record.
   */
  cancelledElsewhere(taskId: string): void {
    this.abort(taskId, "task cancelled");
  }

  /**
   * Cancels the session's task as `tasks/cancel` does (the `cancel` tool): undefined when the
   * session has no such task, its state unchanged when it already ended.
   */
  async cancel(
    taskId: string,
    sessionId: string | undefined,
    why: string,
  ): Promise<{ status: string; ended: boolean } | undefined> {
    const task = await this.inner.getTask(taskId, sessionId);
    if (!task) return undefined;
    if (TERMINAL.has(task.status)) return { status: task.status, ended: true };
    await this.updateTaskStatus(taskId, "cancelled", why, sessionId);
    return { status: "cancelled", ended: false };
  }

  /** The session ended (DELETE, or evicted): the work of its tasks running here is cancelled. */
  endSession(sessionId: string): void {
    for (const [taskId, session] of [...this.sessions]) {
      if (session !== sessionId) continue;
      this.abort(taskId, "the session ended");
      void this.inner.updateTaskStatus(taskId, "cancelled", "the session ended", sessionId).catch(() => {});
    }
  }

  /** Tasks whose work runs here now (for `/healthz`). */
  get running(): number {
    return this.controllers.size;
  }

  /** True when the task's record is gone or ended (its result must not be stored then). */
  async ended(taskId: string, sessionId?: string): Promise<boolean> {
    const task = await this.inner.getTask(taskId, sessionId).catch(() => null);
    return !task || TERMINAL.has(task.status);
  }

  private abort(taskId: string, why: string): void {
    this.controllers.get(taskId)?.abort(new Error(why));
    this.controllers.delete(taskId);
    this.sessions.delete(taskId);
  }

  /** Stops every task's work (the store itself belongs to whoever made it). */
  close(): void {
    for (const c of this.controllers.values()) c.abort(new Error("server closed"));
    this.controllers.clear();
  }
}
