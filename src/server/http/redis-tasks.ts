/**
 * MCP task records in Redis: the SDK's public `TaskStore` interface, so a task created on one
 * replica is read, awaited (`tasks/result`) and cancelled from any other. A record expires with
 * its TTL. Status changes go through one Lua script that refuses to leave a terminal state, so a
 * cancel and a finishing call racing on two replicas cannot both win. A cancel is published on a
 * channel, so the replica running the work aborts it at once (`onCancel`); `TaskWork`'s watch of
 * the record (src/server/tasks.ts) stays as the fallback for a lost message.
 */
import { randomUUID } from "node:crypto";
import type { CreateTaskOptions, TaskStore } from "@modelcontextprotocol/sdk/experimental/tasks";
import type { Request, RequestId, Result, Task } from "@modelcontextprotocol/sdk/types.js";
import { TASK_TTL_MS } from "../tasks.js";
import { PREFIX, type Shared } from "./redis.js";

const rec = (id: string) => `${PREFIX}t:${id}`;
const list = (session: string | undefined) => `${PREFIX}tl:${session ?? "-"}`;
const PAGE = 50;
/** The channel a cancel is published on: the task id. */
const CANCELS = `${PREFIX}task-cancels`;

/** KEYS: record. ARGV: status, message or "", now ISO, result JSON or "". Returns 1, 0 (terminal) or -1 (none). */
const UPDATE = `
local raw = redis.call('HGET', KEYS[1], 'task')
if not raw then return -1 end
local task = cjson.decode(raw)
if task.status == 'completed' or task.status == 'failed' or task.status == 'cancelled' then return 0 end
task.status = ARGV[1]
if ARGV[2] ~= '' then task.statusMessage = ARGV[2] end
task.lastUpdatedAt = ARGV[3]
redis.call('HSET', KEYS[1], 'task', cjson.encode(task))
if ARGV[4] ~= '' then redis.call('HSET', KEYS[1], 'result', ARGV[4]) end
return 1`;

export class RedisTaskStore implements TaskStore {
  readonly #shared: Shared;

  constructor(shared: Shared) {
    this.#shared = shared;
  }

  async createTask(
    params: CreateTaskOptions,
    _requestId: RequestId,
    _request: Request,
    sessionId?: string,
  ): Promise<Task> {
    const now = new Date().toISOString();
    // Every key expires: a task created without a TTL gets the default one.
    const ttl = params.ttl ?? TASK_TTL_MS;
    const task: Task = {
      taskId: randomUUID(),
      status: "working",
      ttl,
      createdAt: now,
      lastUpdatedAt: now,
      ...(params.pollInterval !== undefined ? { pollInterval: params.pollInterval } : {}),
    };
    const multi = this.#shared.redis
      .multi()
      .hset(rec(task.taskId), { task: JSON.stringify(task), session: sessionId ?? "" })
      .zadd(list(sessionId), Date.now(), task.taskId)
      .pexpire(rec(task.taskId), ttl)
      // The list lives as long as its longest-lived task.
      .pexpire(list(sessionId), ttl, "NX")
      .pexpire(list(sessionId), ttl, "GT");
    await multi.exec();
    return task;
  }

  async #read(taskId: string, sessionId?: string) {
    const [task, session, result] = await this.#shared.redis.hmget(rec(taskId), "task", "session", "result");
    if (task === null) return undefined;
    if (sessionId !== undefined && session && session !== sessionId) return undefined;
    return { task: JSON.parse(task) as Task, result };
  }

  async getTask(taskId: string, sessionId?: string): Promise<Task | null> {
    return (await this.#read(taskId, sessionId))?.task ?? null;
  }

  async storeTaskResult(taskId: string, status: "completed" | "failed", result: Result, sessionId?: string) {
    await this.#update(taskId, status, undefined, sessionId, JSON.stringify(result));
  }

  async getTaskResult(taskId: string, sessionId?: string): Promise<Result> {
    const found = await this.#read(taskId, sessionId);
    if (!found) throw new Error(`Task with ID ${taskId} not found`);
    if (found.result === null) throw new Error(`Task ${taskId} has no result stored`);
    return JSON.parse(found.result) as Result;
  }

  async updateTaskStatus(taskId: string, status: Task["status"], message?: string, sessionId?: string) {
    await this.#update(taskId, status, message, sessionId);
    if (status === "cancelled") await this.#shared.redis.publish(CANCELS, taskId).catch(() => {});
  }

  /** Calls `handler` with the id of each task cancelled on any replica (this one included). */
  onCancel(handler: (taskId: string) => void): Promise<void> {
    return this.#shared.on(CANCELS, handler);
  }

  async #update(taskId: string, status: string, message?: string, sessionId?: string, result?: string) {
    if (!(await this.#read(taskId, sessionId))) throw new Error(`Task with ID ${taskId} not found`);
    const code = await this.#shared.redis.eval(
      UPDATE,
      1,
      rec(taskId),
      status,
      message ?? "",
      new Date().toISOString(),
      result ?? "",
    );
    if (code === -1) throw new Error(`Task with ID ${taskId} not found`);
    if (code === 0) {
      throw new Error(`Cannot update task ${taskId}: it already reached a terminal status`);
    }
  }

  async listTasks(cursor?: string, sessionId?: string): Promise<{ tasks: Task[]; nextCursor?: string }> {
    const start = cursor === undefined ? 0 : Number(cursor);
    if (!Number.isInteger(start) || start < 0) throw new Error(`Invalid cursor: ${cursor}`);
    const ids = await this.#shared.redis.zrange(list(sessionId), String(start), String(start + PAGE - 1));
    const tasks: Task[] = [];
    for (const id of ids) {
      const task = await this.getTask(id, sessionId);
      if (task) tasks.push(task);
      else await this.#shared.redis.zrem(list(sessionId), id);
    }
    return ids.length === PAGE ? { tasks, nextCursor: String(start + PAGE) } : { tasks };
  }
}
