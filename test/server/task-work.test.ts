/** TaskWork: a task's work is aborted when its record expires or is cancelled (the store's public API only). */
import { InMemoryTaskStore } from "@modelcontextprotocol/sdk/experimental/tasks";
import { afterEach, describe, expect, it } from "vitest";
import { MIN_TASK_TTL_MS, TaskWork, taskTtl } from "../../src/server/tasks.js";

const store = new InMemoryTaskStore();
const work = new TaskWork(store);
const request = { method: "tools/call", params: { name: "crawl_site", arguments: {} } };
const aborted = (signal: AbortSignal) =>
  new Promise<string>((resolve) =>
    signal.addEventListener("abort", () => resolve(String((signal.reason as Error).message)), { once: true }),
  );

afterEach(() => store.cleanup());

describe("TaskWork", () => {
  it("aborts the work when the task's record expires", async () => {
    const task = await work.createTask({ ttl: 20 }, 1, request);
    const { signal, done } = work.start(task.taskId);
    expect(await aborted(signal)).toBe("task record expired");
    expect(await work.ended(task.taskId)).toBe(true);
    done();
  });

  it("aborts the work when the task is cancelled, and its result read then says so", async () => {
    const task = await work.createTask({ ttl: 60_000 }, 2, request);
    const { signal, done } = work.start(task.taskId);
    const why = aborted(signal);
    await work.updateTaskStatus(task.taskId, "cancelled");
    expect(await why).toBe("task cancelled");
    await expect(work.getTaskResult(task.taskId)).rejects.toThrow(/was cancelled, so it has no result/);
    done();
  });

  it("gives a task at least the minimum TTL, and the default when none is asked", () => {
    expect(taskTtl(5)).toBe(MIN_TASK_TTL_MS);
    expect(taskTtl(undefined)).toBeGreaterThanOrEqual(MIN_TASK_TTL_MS);
    expect(taskTtl(2 * MIN_TASK_TTL_MS)).toBe(2 * MIN_TASK_TTL_MS);
  });
});
