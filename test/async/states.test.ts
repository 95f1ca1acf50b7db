/**
 * The one state module (src/async/states.ts) and the waits that use it: every state word of the
 * spec and of the live service, unknown words as running (logged once, bounded by the deadline),
 * canceled crawls as final, batches without `total`.
 */
import { afterEach, describe, expect, it } from "vitest";
import { WebDataClient } from "../../src/api/client.js";
import { ClientRuntime } from "../../src/api/client-runtime.js";
import { UnknownStates } from "../../src/api/unknown-states.js";
import { endedIds } from "../../src/async/callback-receiver.js";
import { batchCounts, batchPhase, phaseOf } from "../../src/async/states.js";
import { waitFor } from "../../src/async/wait.js";
import { ManualClock } from "../helpers/clock.js";
import { type FakeServer, type Handler, json, startFakeServer, TASK } from "../helpers/fake-upstream.js";

let server: FakeServer | undefined;
let client: WebDataClient | undefined;

afterEach(async () => {
  await client?.close();
  await server?.close();
  client = undefined;
  server = undefined;
});

async function setup(handler: Handler, runtime?: ClientRuntime) {
  server = await startFakeServer(handler);
  // Waits run on a manual clock that jumps whenever they pause: no real time passes.
  client = new WebDataClient({
    baseUrl: server.url,
    apiKey: "states-key-1234567",
    maxAttempts: 1,
    clock: new ManualClock({ auto: true }),
    runtime,
  });
  return client;
}

describe("phaseOf", () => {
  it.each([
    ["task", "pending", "running"],
    ["task", "queued", "running"],
    ["task", "in_progress", "running"],
    ["task", "success", "done"],
    ["task", "error", "failed"],
    ["crawl", "queued", "running"],
    ["crawl", "running", "running"],
    ["crawl", "succeeded", "done"],
    ["crawl", "failed", "failed"],
    ["crawl", "canceled", "canceled"],
    ["item", "completed", "done"],
    ["item", "failed", "failed"],
    ["item", "pending", "running"],
    ["item", "success", "done"],
  ] as const)("%s %s is %s", (kind, state, phase) => {
    expect(phaseOf(kind, state)).toBe(phase);
  });

  it("an unknown word or a missing state is running, and the unknown word is logged once per owner", () => {
    const logged: string[] = [];
    const unknown = new UnknownStates((m) => logged.push(m));
    expect(phaseOf("task", "paused_by_operator", unknown)).toBe("running");
    expect(phaseOf("task", "paused_by_operator", unknown)).toBe("running");
    expect(phaseOf("task", null, unknown)).toBe("running");
    expect(phaseOf("task", undefined, unknown)).toBe("running");
    expect(logged).toHaveLength(1);
    expect(logged[0]).toContain('unknown task state "paused_by_operator"');
    // the memory belongs to its owner: another (another client runtime) has noted nothing yet
    phaseOf("task", "paused_by_operator", new UnknownStates((m) => logged.push(m)));
    expect(logged).toHaveLength(2);
  });

  it("batches: completed, or every task counted, or a progress of 1, means done", () => {
    expect(batchPhase({ completed: true })).toBe("done");
    expect(batchPhase({ completed: false, progress: 1 })).toBe("running");
    expect(batchPhase({ completed_count: 3, total: 3 })).toBe("done");
    expect(batchPhase({ completed_count: 2, progress: 1 })).toBe("done");
    expect(batchPhase({ completed_count: 1, progress: 0.5 })).toBe("running");
    expect(batchPhase({})).toBe("running");
    expect(batchCounts({ completed_count: 1, progress: 0.25 })).toEqual({ completed: 1, total: 4 });
    expect(batchCounts({ completed_count: 1 })).toEqual({ completed: 1 });
  });

  it("webhook completion asks the same module", () => {
    expect(endedIds({ task: { id: "a", state: "success" } })).toEqual(["a"]);
    expect(endedIds({ task: { id: "a", state: "in_progress" } })).toEqual([]);
    expect(endedIds({ event: "canceled", crawl_id: "c" })).toEqual(["c"]);
    expect(endedIds({ event: "page", crawl_id: "c" })).toEqual([]);
  });
});

describe("waits decide through it", () => {
  it("a task in an unknown state is polled until the deadline, then handed back pending", async () => {
    const logged: string[] = [];
    const c = await setup(
      (_req, res) => json(res, 200, { task: { ...TASK, state: "reticulating", error: null } }),
      new ClientRuntime({ log: (m) => logged.push(m) }),
    );
    const outcome = await waitFor(c, { kind: "task", id: TASK.id }, { deadlineMs: 600 });
    expect(outcome).toMatchObject({ status: "pending", state: "reticulating" });
    expect(server!.requests.length).toBeGreaterThan(0);
    // noted once, in the client's runtime
    expect(logged).toEqual([expect.stringContaining('unknown task state "reticulating"')]);
  });

  it("queued, then in_progress, then success (the live words) ends done", async () => {
    const states = ["queued", "in_progress", "success"];
    const c = await setup((_req, res, i) =>
      json(res, 200, { task: { ...TASK, state: states[Math.min(i, 2)] } }),
    );
    const outcome = await waitFor(c, { kind: "task", id: TASK.id }, { deadlineMs: 20_000 });
    expect(outcome).toMatchObject({ status: "done", state: "success" });
  });

  it("a canceled crawl (flat live shape) is final, not polled to the deadline", async () => {
    const c = await setup((_req, res, i) =>
      json(res, 200, {
        crawl_id: "c1",
        status: i < 1 ? "running" : "canceled",
        completed: 1,
        total: 3,
        tasks: [{ task_id: "t1", status: "completed" }, null],
      }),
    );
    const outcome = await waitFor(c, { kind: "crawl", id: "c1" }, { deadlineMs: 20_000 });
    expect(outcome).toMatchObject({ status: "failed", state: "canceled" });
    expect(outcome.status === "failed" && outcome.error).toContain("canceled");
  });

  it("a batch whose progress has no total ends on its progress fraction", async () => {
    const c = await setup((_req, res, i) =>
      json(res, 200, { completed_count: i < 1 ? 1 : 2, progress: i < 1 ? 0.5 : 1 }),
    );
    const outcome = await waitFor(c, { kind: "batch", id: "b1" }, { deadlineMs: 20_000 });
    expect(outcome).toMatchObject({ status: "done", state: "completed" });
  });
});
