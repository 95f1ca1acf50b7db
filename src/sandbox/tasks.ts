/**
 * Task store and lifecycle. A task is `pending` until `completeAt`, then `success` or `error`;
 * its state is derived from the clock, so a 1,000-task batch costs no timers. Only tasks with a
 * callback get a timer. The store keeps the newest MAX_TASKS tasks.
 */
import { randomUUID } from "node:crypto";
import { sizedLru } from "../api/sized-lru.js";
import type { CallbackSender } from "./callbacks.js";
import type { Timers } from "./timers.js";

export const MAX_TASKS = 50_000;
export const ACCOUNT_NAME = "sandbox";

export type ApiType = "extract" | "agent" | "template" | "crawl" | "map" | "search" | "serp" | "media";

export interface TaskFailure {
  error: string;
  errorType: string;
}

export interface TaskSpec {
  apiType: ApiType;
  /** The input as submitted (after defaults), echoed in the record. */
  input: unknown;
  /** The target URL of the task (the result's `url`). */
  url: string;
  batchId?: string;
  /** How long the task stays pending. */
  delayMs: number;
  failure?: TaskFailure;
  statusCode?: number;
  callbackUrl?: string;
  driver: string;
  /** Builds `data` of the result once the task succeeded (called on each read; not stored). */
  data: () => Record<string, unknown>;
}

export interface StoredTask extends TaskSpec {
  id: string;
  seq: number;
  createdAt: number;
  completeAt: number;
}

const iso = (ms: number) => new Date(ms).toISOString();

export class TaskStore {
  /** Oldest dropped first past MAX_TASKS (read with `peek`, so reads do not reorder). */
  private readonly tasks = sizedLru<string, StoredTask>(MAX_TASKS);
  private seq = 0;

  constructor(
    private readonly legacyUrl: () => string,
    private readonly timers: Timers,
    private readonly callbacks: CallbackSender,
  ) {}

  /** Makes a task on first read of an id not in the store (the demo task); undefined: 404. */
  onMissing?: (id: string) => StoredTask | undefined;

  create(spec: TaskSpec, now = Date.now(), id: string = randomUUID()): StoredTask {
    const task: StoredTask = {
      ...spec,
      id,
      seq: ++this.seq,
      createdAt: now,
      completeAt: now + spec.delayMs,
    };
    this.tasks.set(task.id, task);
    const callbackUrl = spec.callbackUrl;
    if (callbackUrl) {
      this.timers.after(spec.delayMs, () => this.callbacks.send(callbackUrl, this.callbackBody(task)));
    }
    return task;
  }

  get(id: string): StoredTask | undefined {
    return this.tasks.peek(id) ?? this.onMissing?.(id);
  }

  state(task: StoredTask, now = Date.now()): "pending" | "success" | "error" {
    if (now < task.completeAt) return "pending";
    return task.failure ? "error" : "success";
  }

  /** The task record of the spec's Task record table. */
  record(task: StoredTask, now = Date.now()): Record<string, unknown> {
    const state = this.state(task, now);
    const base = `${this.legacyUrl()}/api/v1/tasks/${task.id}`;
    return {
      id: task.id,
      state,
      created_at: iso(task.createdAt),
      modified_at: iso(state === "pending" ? task.createdAt : task.completeAt),
      input: task.input,
      status_url: base,
      ...(state === "success" ? { download_url: `${base}/results` } : {}),
      account_name: ACCOUNT_NAME,
      api_type: task.apiType,
      ...(task.batchId ? { batch_id: task.batchId } : {}),
      ...(state === "error" ? { error: task.failure!.error, error_type: task.failure!.errorType } : {}),
      ...(state !== "pending" && task.statusCode !== undefined ? { status_code: task.statusCode } : {}),
    };
  }

  /** The Task result of a finished task (success or error). */
  result(task: StoredTask, now = Date.now()): Record<string, unknown> {
    const state = this.state(task, now);
    const common = {
      url: task.url,
      task_id: task.id,
      task: {
        id: task.id,
        state,
        created_at: iso(task.createdAt),
        modified_at: iso(task.completeAt),
        account_name: ACCOUNT_NAME,
      },
      metadata: {
        query_time: iso(task.createdAt),
        query_duration: task.completeAt - task.createdAt,
        response_parameters: { input_url: task.url },
        driver: task.driver,
      },
    };
    if (state === "error") {
      return {
        ...common,
        status: "error",
        data: {},
        error: task.failure!.error,
        error_type: task.failure!.errorType,
      };
    }
    return {
      ...common,
      status: "success",
      data: task.data(),
      ...(task.statusCode !== undefined ? { status_code: task.statusCode } : {}),
    };
  }

  /** Newest first; `cursor` is the opaque value of a previous page's `next_cursor`. */
  list(cursor: string | undefined, limit: number): { tasks: StoredTask[]; nextCursor: string | null } {
    const before = cursor ? Number.parseInt(cursor, 36) : Number.POSITIVE_INFINITY;
    const all = [...this.tasks.rvalues()].filter((t) => t !== undefined);
    const page: StoredTask[] = [];
    for (let i = all.length - 1; i >= 0 && page.length < limit; i--) {
      if (all[i].seq < before) page.push(all[i]);
    }
    const last = page[page.length - 1];
    const more = last !== undefined && all.some((t) => t.seq < last.seq);
    return { tasks: page, nextCursor: more ? last.seq.toString(36) : null };
  }

  private callbackBody(task: StoredTask) {
    const r = this.record(task, task.completeAt);
    return {
      task: {
        id: r.id,
        state: r.state,
        status_code: task.statusCode ?? (task.failure ? 0 : 200),
        created_at: r.created_at,
        modified_at: r.modified_at,
        input: r.input,
        api_type: r.api_type,
      },
    };
  }
}
