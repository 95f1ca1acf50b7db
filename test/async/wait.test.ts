/**
 * waitFor against a scripted local server: outcomes, progress, deadline, cancellation, callbacks.
 * Its pauses and deadline run on a manual clock: no test waits for real time to pass.
 */
import { afterEach, describe, expect, it } from "vitest";
import { WebDataClient } from "../../src/api/client.js";
import { ApiError } from "../../src/api/errors.js";
import { type CallbackReceiver, startCallbackReceiver } from "../../src/async/callback-receiver.js";
import type { Progress } from "../../src/async/progress.js";
import { waitFor } from "../../src/async/wait.js";
import { ManualClock } from "../helpers/clock.js";
import { type FakeServer, type Handler, json, startFakeServer, TASK } from "../helpers/fake-upstream.js";

let server: FakeServer | undefined;
let client: WebDataClient | undefined;
let receiver: CallbackReceiver | undefined;
let clock: ManualClock;

afterEach(async () => {
  await client?.close();
  await server?.close();
  await receiver?.close();
  client = undefined;
  server = undefined;
  receiver = undefined;
});

/** A fake API and a client on a manual clock; `auto`: time jumps whenever the wait pauses. */
async function setup(handler: Handler, auto = true) {
  server = await startFakeServer(handler);
  clock = new ManualClock({ auto });
  client = new WebDataClient({
    generation: 1,
    baseUrl: server.url,
    apiKey: "wait-key-1234567",
    maxAttempts: 1,
    clock,
  });
  return { server, client };
}

const task = (state: string, extra: Record<string, unknown> = {}) => ({ task: { ...TASK, state, ...extra } });

describe("waitFor outcomes", () => {
  it("polls a task until success, reporting strictly increasing progress on every poll", async () => {
    const { server, client } = await setup((_req, res, i) =>
      json(res, 200, task(i < 3 ? "pending" : "success")),
    );
    const progress: Progress[] = [];
    const outcome = await waitFor(
      client,
      { kind: "task", id: TASK.id },
      { onProgress: (p) => void progress.push(p) },
    );
    expect(outcome).toMatchObject({ status: "done", state: "success", record: { id: TASK.id } });
    expect(server.requests).toHaveLength(4);
    expect(server.requests.every((r) => r.url === `/v1/tasks/${TASK.id}`)).toBe(true);
    expect(progress).toHaveLength(4);
    for (let i = 1; i < progress.length; i++)
      expect(progress[i].progress).toBeGreaterThan(progress[i - 1].progress);
  });

  it("returns failed with the task's error and error_type", async () => {
    const { client } = await setup((_req, res) =>
      json(res, 200, task("error", { error: "target refused", error_type: "fetch_error" })),
    );
    const outcome = await waitFor(client, { kind: "task", id: TASK.id });
    expect(outcome).toMatchObject({
      status: "failed",
      state: "error",
      error: "target refused",
      error_type: "fetch_error",
    });
  });

  it("follows batch progress counts and ends at the total", async () => {
    const counts = [0, 4, 4, 10];
    const { server, client } = await setup((_req, res, i) => {
      const done = counts[Math.min(i, counts.length - 1)];
      json(res, 200, { completed_count: done, total: 10, progress: done / 10, completed: done === 10 });
    });
    const progress: Progress[] = [];
    const outcome = await waitFor(
      client,
      { kind: "batch", id: "b1" },
      { onProgress: (p) => void progress.push(p) },
    );
    expect(outcome).toMatchObject({ status: "done", state: "completed" });
    expect(server.requests[0].url).toBe("/v1/batches/b1/progress");
    expect(progress.map((p) => p.total)).toEqual([10, 10, 10, 10]);
    expect(progress.at(-1)?.progress).toBe(10);
    expect(progress[1].progress).toBe(4);
    expect(progress[2].progress).toBeGreaterThan(4);
  });

  it("polls a crawl until succeeded or failed", async () => {
    const crawl = (status: string, completed: number) => ({
      crawl: { status, completed, total: 3, tasks: [] },
    });
    const { client } = await setup((_req, res, i) =>
      json(res, 200, i < 1 ? crawl("running", 1) : crawl("failed", 2)),
    );
    const outcome = await waitFor(client, { kind: "crawl", id: "c1" });
    expect(outcome).toMatchObject({ status: "failed", state: "failed" });
  });

  it("rejects on a permanent error (401)", async () => {
    const { client } = await setup((_req, res) =>
      json(res, 401, { error: { code: "UNAUTHORIZED", message: "no" } }),
    );
    await expect(waitFor(client, { kind: "task", id: TASK.id })).rejects.toMatchObject({
      code: "unauthorized",
    });
  });
});

describe("waitFor deadline", () => {
  it("returns a pending handle with the id and the last state, never throwing", async () => {
    const { client } = await setup((_req, res) => json(res, 200, task("pending")));
    const outcome = await waitFor(client, { kind: "task", id: TASK.id }, { deadlineMs: 600 });
    expect(outcome).toMatchObject({
      status: "pending",
      state: "pending",
      target: { kind: "task", id: TASK.id },
    });
    if (outcome.status === "pending") expect(outcome.elapsedMs).toBe(600);
  });

  it("keeps polling through transient errors and notes the last one in the handle", async () => {
    const { server, client } = await setup((_req, res) =>
      json(res, 503, { error: { code: "E", message: "busy" } }),
    );
    const outcome = await waitFor(client, { kind: "task", id: TASK.id }, { deadlineMs: 700 });
    expect(outcome).toMatchObject({ status: "pending", state: "unknown" });
    if (outcome.status === "pending") expect(outcome.lastError).toContain("503");
    expect(server.requests.length).toBeGreaterThan(1);
  });

  it("returns the handle when the caller's signal aborts for lack of time", async () => {
    const { server, client } = await setup((_req, res) => json(res, 200, task("pending")), false);
    const outOfTime = new AbortController();
    const waiting = waitFor(client, { kind: "task", id: TASK.id }, { signal: outOfTime.signal });
    await clock.sleeping(2); // the deadline and the first pause
    await clock.advance(1_000);
    await server.received(1);
    await clock.sleeping(2);
    outOfTime.abort(new DOMException("out of time", "TimeoutError"));
    const outcome = await waiting;
    expect(outcome).toMatchObject({ status: "pending", state: "pending", target: { id: TASK.id } });
  });

  it("ends a poll that hangs at the deadline", async () => {
    const { server, client } = await setup(() => {
      // never answers
    }, false);
    const waiting = waitFor(client, { kind: "task", id: TASK.id }, { deadlineMs: 400 });
    await clock.sleeping(2);
    await clock.advance(150); // the first poll starts, and hangs
    await server.received(1);
    await clock.advance(250);
    const outcome = await waiting;
    expect(outcome.status).toBe("pending");
  });
});

describe("waitFor cancellation", () => {
  it("rejects with aborted and starts no request after the abort", async () => {
    const { server, client } = await setup((_req, res) => json(res, 200, task("pending")), false);
    const controller = new AbortController();
    const waiting = waitFor(client, { kind: "task", id: TASK.id }, { signal: controller.signal });
    for (let polls = 1; polls <= 2; polls++) {
      await clock.sleeping(2); // the deadline and the next pause
      await clock.advance(3_000); // past any pause of the schedule
      await server.received(polls);
    }
    await clock.sleeping(2);
    controller.abort();
    const err = await waiting.catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ApiError);
    expect((err as ApiError).code).toBe("aborted");
    // Nothing left to wake up, and a minute later no poll has started.
    expect(clock.pending).toBe(0);
    await clock.advance(60_000);
    expect(server.requests).toHaveLength(2);
  });

  it("rejects at once when the signal is already aborted, without a request", async () => {
    const { server, client } = await setup((_req, res) => json(res, 200, task("pending")));
    await expect(
      waitFor(client, { kind: "task", id: TASK.id }, { signal: AbortSignal.abort() }),
    ).rejects.toMatchObject({
      code: "aborted",
    });
    expect(server.requests).toHaveLength(0);
  });

  it("aborts the poll in flight", async () => {
    const { server, client } = await setup(() => {
      // never answers: the poll stays in flight
    });
    const controller = new AbortController();
    const waiting = waitFor(client, { kind: "task", id: TASK.id }, { signal: controller.signal });
    await server.received(1);
    controller.abort();
    await expect(waiting).rejects.toMatchObject({ code: "aborted" });
  });
});

describe("waitFor with a callback", () => {
  it("returns on the callback without waiting for the next slow poll", async () => {
    let succeeded = false;
    const { server, client } = await setup(
      (_req, res) => json(res, 200, task(succeeded ? "success" : "pending")),
      false,
    );
    receiver = await startCallbackReceiver();
    const waiting = waitFor(
      client,
      { kind: "task", id: TASK.id },
      { completion: receiver, deadlineMs: 20_000 },
    );
    await clock.sleeping(2); // the deadline and the first poll's pause (1 s with a callback)
    await clock.advance(1_000);
    await server.received(1);
    await clock.sleeping(2); // the deadline and the slow schedule's next pause
    succeeded = true;
    const res = await fetch(receiver.url, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify(task("success")),
    });
    expect(res.status).toBe(204);
    const outcome = await waiting;
    expect(outcome.status).toBe("done");
    // the first poll plus the one the callback triggered: the clock never reached the slow schedule's next poll
    expect(server.requests).toHaveLength(2);
  });

  it("resolves a wait that starts after its callback arrived", async () => {
    receiver = await startCallbackReceiver();
    await fetch(receiver.url, { method: "POST", body: JSON.stringify(task("error")) });
    await expect(receiver.wait(TASK.id, new AbortController().signal)).resolves.toBeUndefined();
  });
});
