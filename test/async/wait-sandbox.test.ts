/** waitFor and the client's rate limiter against the real sandbox. */
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { WebDataClient } from "../../src/api/client.js";
import { ApiError } from "../../src/api/errors.js";
import { startCallbackReceiver } from "../../src/async/callback-receiver.js";
import type { Progress } from "../../src/async/progress.js";
import { waitFor } from "../../src/async/wait.js";
import { type Sandbox, startSandbox } from "../../src/sandbox/index.js";

let sandbox: Sandbox;
let client: WebDataClient;

beforeAll(async () => {
  sandbox = await startSandbox({ allowCallbacks: true });
});
afterAll(async () => {
  await sandbox.close();
});
afterEach(async () => {
  sandbox.faults.clear();
  sandbox.configure({ taskLatencyMs: 300, crawlPageMs: 100 });
  await client?.close();
});

function newClient() {
  client = new WebDataClient({ baseUrl: sandbox.url, apiKey: `wait-sandbox-${Math.random()}` });
  return client;
}
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe("waitFor against the sandbox", () => {
  it("waits for an async extract to succeed", async () => {
    const c = newClient();
    const { task_id } = await c.extractAsync({ url: `${sandbox.siteUrl}/` });
    const outcome = await waitFor(c, { kind: "task", id: task_id });
    expect(outcome).toMatchObject({ status: "done", state: "success" });
    await expect(c.getTaskResults(task_id)).resolves.toMatchObject({ status: "success" });
  });

  it("returns failed for a task that errors", async () => {
    const c = newClient();
    sandbox.faults.add({ kind: "task_error", count: 1 });
    const { task_id } = await c.extractAsync({ url: `${sandbox.siteUrl}/` });
    const outcome = await waitFor(c, { kind: "task", id: task_id });
    expect(outcome.status).toBe("failed");
    if (outcome.status === "failed") {
      expect(outcome.error).toEqual(expect.any(String));
      expect(outcome.error_type).toEqual(expect.any(String));
    }
  });

  it("returns a pending handle at the deadline, keeping the id", async () => {
    const c = newClient();
    sandbox.configure({ taskLatencyMs: 60_000 });
    const { task_id } = await c.extractAsync({ url: `${sandbox.siteUrl}/` });
    const outcome = await waitFor(c, { kind: "task", id: task_id }, { deadlineMs: 1_500 });
    // How soon after the deadline it returns is measured by npm run bench, not asserted here.
    expect(outcome).toMatchObject({
      status: "pending",
      state: "pending",
      target: { kind: "task", id: task_id },
    });
  });

  it("stops every request within one interval of a cancel", async () => {
    const c = newClient();
    sandbox.configure({ taskLatencyMs: 60_000 });
    const { task_id } = await c.extractAsync({ url: `${sandbox.siteUrl}/` });
    const controller = new AbortController();
    const progress: Progress[] = [];
    const waiting = waitFor(
      c,
      { kind: "task", id: task_id },
      { signal: controller.signal, onProgress: (p) => void progress.push(p) },
    );
    const polls = () => sandbox.requests.filter((r) => r.path === `/v1/tasks/${task_id}`);
    while (polls().length < 5) await sleep(20);
    controller.abort();
    const abortedAt = Date.now();
    const err = await waiting.catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ApiError);
    expect((err as ApiError).code).toBe("aborted");
    // A second wait on the same schedule, run for as many polls as the cancelled one made and one
    // more: had the cancelled one kept going, its next poll would have come meanwhile.
    const other = await c.extractAsync({ url: `${sandbox.siteUrl}/other` });
    const otherPolls = () => sandbox.requests.filter((r) => r.path === `/v1/tasks/${other.task_id}`);
    const stop = new AbortController();
    const second = waitFor(c, { kind: "task", id: other.task_id }, { signal: stop.signal }).catch(() => {});
    const made = polls().length;
    while (otherPolls().length < made + 1) await sleep(20);
    stop.abort();
    await second;
    // A poll already on its way may still arrive; nothing may start later.
    expect(polls().filter((r) => r.at > abortedAt).length).toBeLessThanOrEqual(1);
    // one progress per answered poll (the fifth may have been cut off by the cancel)
    expect(progress.length).toBeGreaterThanOrEqual(4);
  });

  it("follows a batch to completion with progress counts", async () => {
    const c = newClient();
    const inputs = Array.from({ length: 20 }, (_, i) => ({ url: `${sandbox.siteUrl}/shop?i=${i}` }));
    const { batch_id } = await c.extractBatch({ inputs });
    const progress: Progress[] = [];
    const outcome = await waitFor(
      c,
      { kind: "batch", id: batch_id },
      { onProgress: (p) => void progress.push(p) },
    );
    expect(outcome).toMatchObject({ status: "done", state: "completed" });
    expect(progress.at(-1)).toMatchObject({ progress: 20, total: 20 });
    for (let i = 1; i < progress.length; i++)
      expect(progress[i].progress).toBeGreaterThan(progress[i - 1].progress);
  });

  it("follows a crawl until it succeeds, with page counts as progress", async () => {
    const c = newClient();
    sandbox.configure({ crawlPageMs: 50 });
    const { crawl_id } = await c.crawl({ url: `${sandbox.siteUrl}/`, limit: 5 });
    const progress: Progress[] = [];
    const outcome = await waitFor(
      c,
      { kind: "crawl", id: crawl_id },
      { onProgress: (p) => void progress.push(p) },
    );
    expect(outcome).toMatchObject({ status: "done", state: "succeeded" });
    const total = (outcome.record as { total: number }).total;
    expect(progress.at(-1)).toMatchObject({ progress: total, total });
    for (let i = 1; i < progress.length; i++)
      expect(progress[i].progress).toBeGreaterThan(progress[i - 1].progress);
  });

  it("returns on a crawl's completed callback", async () => {
    const c = newClient();
    const receiver = await startCallbackReceiver();
    try {
      sandbox.configure({ crawlPageMs: 300 });
      const callback = { url: receiver.url, events: ["completed" as const, "failed" as const] };
      const { crawl_id } = await c.crawl({ url: `${sandbox.siteUrl}/`, limit: 5, callback });
      const outcome = await waitFor(c, { kind: "crawl", id: crawl_id }, { completion: receiver });
      expect(outcome).toMatchObject({ status: "done", state: "succeeded" });
      expect(sandbox.requests.filter((r) => r.path === `/v1/crawl/${crawl_id}`).length).toBeLessThanOrEqual(
        3,
      );
    } finally {
      await receiver.close();
    }
  });

  it("returns failed for a crawl that fails", async () => {
    const c = newClient();
    sandbox.faults.add({ kind: "crawl_fail", count: 1 });
    const { crawl_id } = await c.crawl({ url: `${sandbox.siteUrl}/`, limit: 3 });
    const outcome = await waitFor(c, { kind: "crawl", id: crawl_id });
    expect(outcome).toMatchObject({ status: "failed", state: "failed" });
  });

  it("returns on the task's callback", async () => {
    const c = newClient();
    const receiver = await startCallbackReceiver();
    try {
      sandbox.configure({ taskLatencyMs: 1_500 });
      const { task_id } = await c.extractAsync({ url: `${sandbox.siteUrl}/`, callback_url: receiver.url });
      const outcome = await waitFor(c, { kind: "task", id: task_id }, { completion: receiver });
      expect(outcome).toMatchObject({ status: "done", state: "success" });
      // a safety-net poll at 1 s, then the one the callback triggered at 1.5 s (a loaded machine may
      // add the 2 s safety-net poll); polling alone would have spent about 8 by then
      expect(sandbox.requests.filter((r) => r.path === `/v1/tasks/${task_id}`).length).toBeLessThanOrEqual(3);
    } finally {
      await receiver.close();
    }
  });
});

describe("a 1,000-item batch at the documented rate", () => {
  it("is submitted and all its results collected with zero 429 responses", { timeout: 90_000 }, async () => {
    const c = newClient();
    const from = sandbox.requests.length;
    const inputs = Array.from({ length: 1000 }, (_, i) => ({ url: `${sandbox.siteUrl}/blog?item=${i}` }));
    const { batch_id, batch_size } = await c.extractBatch({
      inputs,
      shared_inputs: { formats: ["markdown"] },
    });
    expect(batch_size).toBe(1000);
    const outcome = await waitFor(c, { kind: "batch", id: batch_id });
    expect(outcome.status).toBe("done");
    const { tasks } = await c.getBatch(batch_id);
    expect(tasks).toHaveLength(1000);
    const results = await Promise.all(tasks.map((t) => c.getTaskResults(t.id)));
    expect(results.filter((r) => r.status === "success")).toHaveLength(1000);
    const seen = sandbox.requests.slice(from);
    expect(seen.filter((r) => r.path.endsWith("/results"))).toHaveLength(1000);
    expect(seen.filter((r) => r.status === 429)).toHaveLength(0);
  });
});
