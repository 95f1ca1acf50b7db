/**
 * TaskWork: a task's work is aborted when its record expires or is cancelled (the store's public
 * API only). Its watch of the record runs on a manual clock; the SDK store's TTL is real time.
 */
import { InMemoryTaskStore } from "@modelcontextprotocol/sdk/experimental/tasks";
import { afterEach, describe, expect, it } from "vitest";
import { MIN_TASK_TTL_MS, TaskWork, taskTtl } from "../../src/server/tasks.js";
import { ManualClock } from "../helpers/clock.js";
import { until } from "../helpers/mcp.js";

const store = new InMemoryTaskStore();
const clock = new ManualClock();
const WATCH_MS = 1_000;
const work = new TaskWork(store, WATCH_MS, clock);
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
    const why = aborted(signal);
    // The store drops the record when its TTL runs out; the work learns it at its next watch.
    await until(
      () => store.getTask(task.taskId),
      (record) => record === null || record === undefined,
    );
    expect(signal.aborted).toBe(false);
    await clock.advance(WATCH_MS);
    expect(await why).toBe("task record expired");
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
