/** Batches: a batch id over the ids of its tasks; progress is read from the tasks' states. */
import { randomUUID } from "node:crypto";
import { sizedLru } from "../api/sized-lru.js";
import type { StoredTask, TaskStore } from "./tasks.js";

export interface StoredBatch {
  id: string;
  apiType: string;
  taskIds: string[];
  createdAt: number;
}

const MAX_BATCHES = 5_000;

export class BatchStore {
  /** Oldest dropped first past MAX_BATCHES (read with `peek`, so reads do not reorder). */
  private readonly batches = sizedLru<string, StoredBatch>(MAX_BATCHES);

  constructor(private readonly tasks: TaskStore) {}

  newId(): string {
    return randomUUID();
  }

  add(batch: StoredBatch): void {
    this.batches.set(batch.id, batch);
  }

  /** Records a batch over freshly created tasks and returns the documented submission body. */
  submit(id: string, apiType: string, tasks: StoredTask[]) {
    this.add({ id, apiType, taskIds: tasks.map((t) => t.id), createdAt: Date.now() });
    return { batch_id: id, batch_size: tasks.length, tasks: tasks.map((t) => this.tasks.record(t)) };
  }

  get(id: string): StoredBatch | undefined {
    return this.batches.peek(id);
  }

  all(): StoredBatch[] {
    return [...this.batches.values()];
  }

  /** Task states in submission order; a task evicted from the store counts as success. */
  states(batch: StoredBatch, now = Date.now()): { id: string; state: string }[] {
    return batch.taskIds.map((id) => {
      const task = this.tasks.get(id);
      return { id, state: task ? this.tasks.state(task, now) : "success" };
    });
  }

  progress(batch: StoredBatch, now = Date.now()) {
    const states = this.states(batch, now);
    const done = states.filter((s) => s.state !== "pending").length;
    const total = states.length;
    return {
      completed_count: done,
      total,
      progress: total === 0 ? 1 : done / total,
      completed: done === total,
    };
  }

  summary(batch: StoredBatch, now = Date.now()) {
    const p = this.progress(batch, now);
    return {
      batch_id: batch.id,
      batch_size: batch.taskIds.length,
      api_type: batch.apiType,
      created_at: new Date(batch.createdAt).toISOString(),
      completed_count: p.completed_count,
      completed: p.completed,
    };
  }
}
