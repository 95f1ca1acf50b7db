/**
 * MCP tasks for long tools. The SDK runs a task-capable tool through `createTask` in both cases:
 * when the client asked for a task (it polls `tasks/get`, `tasks/result`, may `tasks/cancel`) and
 * when it did not (the SDK then polls the store itself and answers the call). This store wraps the
 * SDK's in-memory one to tell the two apart — the request that created the task either carries
 * `params.task` or not — so an implicit task gets the bounded wait (`WEBDATA_WAIT_MS`), a short
 * internal poll interval and stays out of `tasks/list`; and so a `tasks/cancel` aborts the work.
 */

import type { CreateTaskOptions, TaskStore } from "@modelcontextprotocol/sdk/experimental/tasks";
import { InMemoryTaskStore } from "@modelcontextprotocol/sdk/experimental/tasks";
import type { Request, RequestId, Result, Task } from "@modelcontextprotocol/sdk/types.js";

/**
 * How often the SDK would re-read the store while it answers an implicit task's call (ms). The
 * work of an implicit task ends inside `createTask`, so the SDK finds it ended and never waits.
 */
export const IMPLICIT_POLL_MS = 50;
/** How long an implicit task's record is kept after creation (ms). */
const IMPLICIT_TTL_MS = 10 * 60_000;
/** Poll interval suggested to clients that asked for a task (ms). */
export const EXPLICIT_POLL_MS = 1000;

export class ToolTaskStore implements TaskStore {
  private readonly inner = new InMemoryTaskStore();
  private readonly implicit = new Set<string>();
  private readonly controllers = new Map<string, AbortController>();

  async createTask(params: CreateTaskOptions, requestId: RequestId, request: Request, sessionId?: string) {
    const asked = typeof request.params === "object" && request.params !== null && "task" in request.params;
    const options: CreateTaskOptions = asked
      ? { ...params, pollInterval: params.pollInterval ?? EXPLICIT_POLL_MS }
      : { ...params, ttl: IMPLICIT_TTL_MS, pollInterval: IMPLICIT_POLL_MS };
    const task = await this.inner.createTask(options, requestId, request, sessionId);
    if (!asked) this.implicit.add(task.taskId);
    return task;
  }

  /** True when the client did not ask for this task (the call waits for it). */
  isImplicit(taskId: string): boolean {
    return this.implicit.has(taskId);
  }

  /** The controller aborted when the task is cancelled; forgotten once the task ends. */
  controllerFor(taskId: string): AbortController {
    let c = this.controllers.get(taskId);
    if (!c) {
      c = new AbortController();
      this.controllers.set(taskId, c);
    }
    return c;
  }

  getTask(taskId: string, sessionId?: string): Promise<Task | null> {
    return this.inner.getTask(taskId, sessionId);
  }

  async storeTaskResult(taskId: string, status: "completed" | "failed", result: Result, sessionId?: string) {
    this.controllers.delete(taskId);
    await this.inner.storeTaskResult(taskId, status, result, sessionId);
  }

  /**
   * An implicit task's result is read once, by the SDK answering the call: forget the task then,
   * or every long call's full result would stay in memory for the TTL (a soak of 10,000 calls
   * grew the server by ~90 MB).
   */
  async getTaskResult(taskId: string, sessionId?: string): Promise<Result> {
    try {
      return await this.inner.getTaskResult(taskId, sessionId);
    } finally {
      // Also when there is no result (a cancelled call): the SDK asks exactly once.
      if (this.implicit.has(taskId)) this.forget(taskId);
    }
  }

  /** Drops a task from the SDK's in-memory store (it has no delete of its own). */
  private forget(taskId: string): void {
    const inner = this.inner as unknown as {
      tasks: Map<string, unknown>;
      cleanupTimers: Map<string, ReturnType<typeof setTimeout>>;
    };
    clearTimeout(inner.cleanupTimers.get(taskId));
    inner.cleanupTimers.delete(taskId);
    inner.tasks.delete(taskId);
    this.implicit.delete(taskId);
    this.controllers.delete(taskId);
  }

  async updateTaskStatus(taskId: string, status: Task["status"], message?: string, sessionId?: string) {
    await this.inner.updateTaskStatus(taskId, status, message, sessionId);
    if (status === "cancelled") {
      this.controllers.get(taskId)?.abort(new Error("task cancelled"));
      this.controllers.delete(taskId);
    }
  }

  async listTasks(cursor?: string, sessionId?: string) {
    const page = await this.inner.listTasks(cursor, sessionId);
    return { ...page, tasks: page.tasks.filter((t) => !this.implicit.has(t.taskId)) };
  }

  /** Stops every task's work and clears the store's timers. */
  close(): void {
    for (const c of this.controllers.values()) c.abort(new Error("server closed"));
    this.controllers.clear();
    this.inner.cleanup();
  }
}
