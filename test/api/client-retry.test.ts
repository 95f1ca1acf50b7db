/**
 * Retries, 429 waits, resets and timeouts against a scripted local server. Backoffs and rate-limit
 * waits run on a manual clock that jumps when the client waits; call time limits are real.
 */
import { afterEach, describe, expect, it } from "vitest";
import { WebDataClient, type WebDataClientOptions } from "../../src/api/client.js";
import { ApiError } from "../../src/api/errors.js";
import { ManualClock } from "../helpers/clock.js";
import {
  closedPort,
  type FakeServer,
  type Handler,
  json,
  startFakeServer,
  TASK,
} from "../helpers/fake-upstream.js";

let server: FakeServer | undefined;
let client: WebDataClient | undefined;
let clock: ManualClock;

afterEach(async () => {
  await client?.close();
  await server?.close();
  client = undefined;
  server = undefined;
});

async function setup(handler: Handler, options: Partial<WebDataClientOptions> = {}, auto = true) {
  server = await startFakeServer(handler);
  clock = new ManualClock({ auto });
  client = new WebDataClient({
    baseUrl: server.url,
    apiKey: "retry-key-1234567",
    clock,
    ...options,
  });
  return { server, client };
}

async function failure(promise: Promise<unknown>): Promise<ApiError> {
  const err = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(ApiError);
  return err as ApiError;
}

const rateLimited = (retryAfter: number) => ({
  error: {
    code: "RATE_LIMIT_EXCEEDED",
    message: "Rate limit of 83 per second exceeded",
    retry_after: retryAfter,
  },
});

describe("429", () => {
  it("waits the retry_after the body asks for, even with a later X-RateLimit-Reset", async () => {
    const farReset = String(Math.ceil(Date.UTC(2026, 0, 1) / 1000) + 120);
    const { server, client } = await setup((_req, res, i) =>
      i === 0
        ? json(res, 429, rateLimited(1), { "x-ratelimit-reset": farReset, "x-ratelimit-remaining": "0" })
        : json(res, 200, { task: TASK }),
    );
    const start = clock.now();
    await expect(client.getTask(TASK.id)).resolves.toMatchObject({ task: { id: TASK.id } });
    expect(server.requests).toHaveLength(2);
    // The client's clock moved on by the 1 s asked, not to the reset 120 s away.
    const waited = clock.now() - start;
    expect(waited).toBeGreaterThanOrEqual(1_000);
    expect(waited).toBeLessThan(10_000);
  });

  it("retries a submission after a 429 (it was not accepted)", async () => {
    const { server, client } = await setup((_req, res, i) =>
      i === 0 ? json(res, 429, rateLimited(1)) : json(res, 200, { task_id: "t1" }),
    );
    await expect(client.extractAsync({ url: "https://example.com" })).resolves.toEqual({ task_id: "t1" });
    expect(server.requests).toHaveLength(2);
  });

  it("surfaces rate_limited with retryAfter when the wait would pass the retry deadline", async () => {
    const { server, client } = await setup((_req, res) => json(res, 429, rateLimited(30)), {
      retryDeadlineMs: 5_000,
    });
    const err = await failure(client.getTask(TASK.id));
    expect(err.code).toBe("rate_limited");
    expect(err.retryAfter).toBe(30);
    expect(err.message).toContain("Retry after 30 s");
    expect(server.requests).toHaveLength(1);
  });
});

describe("5xx", () => {
  it("retries a read and succeeds", async () => {
    const { server, client } = await setup((_req, res, i) =>
      i < 2 ? json(res, 503, { error: { code: "E", message: "busy" } }) : json(res, 200, { task: TASK }),
    );
    await expect(client.getTask(TASK.id)).resolves.toBeDefined();
    expect(server.requests).toHaveLength(3);
  });

  it("gives up after maxAttempts with an upstream_error", async () => {
    const { server, client } = await setup((_req, res) =>
      json(res, 500, { error: { code: "E", message: "down" } }),
    );
    const err = await failure(client.getBatchProgress("b1"));
    expect(err.code).toBe("upstream_error");
    expect(err.status).toBe(500);
    expect(err.message).toContain("after 4 attempts");
    expect(err.maybeAccepted).toBe(false);
    expect(server.requests).toHaveLength(4);
  });

  it("retries the read-only domain health POST", async () => {
    const { server, client } = await setup((_req, res, i) =>
      i === 0 ? json(res, 502, {}) : json(res, 200, { domains: [{ domain: "example.com", status: "up" }] }),
    );
    await expect(client.checkDomainHealth({ domains: ["example.com"] })).resolves.toBeDefined();
    expect(server.requests).toHaveLength(2);
  });

  it("does not re-send a submission after a 5xx, and says it may have been accepted", async () => {
    const { server, client } = await setup((_req, res) =>
      json(res, 500, { error: { code: "E", message: "oops" } }),
    );
    const err = await failure(client.extractBatch({ inputs: [{ url: "https://example.com" }] }));
    expect(err.code).toBe("upstream_error");
    expect(err.maybeAccepted).toBe(true);
    expect(err.message).toContain("may have been accepted"); // which tool to check: the tool layer says
    expect(server.requests).toHaveLength(1);
  });
});

describe("connection failures", () => {
  it("retries a read after a reset and succeeds", async () => {
    const { server, client } = await setup((_req, res, i) => {
      if (i === 0) res.socket?.destroy();
      else json(res, 200, { task: TASK });
    });
    await expect(client.getTask(TASK.id)).resolves.toBeDefined();
    expect(server.requests).toHaveLength(2);
  });

  it("does not re-send a submission after a reset once sent", async () => {
    const { server, client } = await setup((_req, res) => {
      res.socket?.destroy();
    });
    const err = await failure(client.crawl({ url: "https://example.com" }));
    expect(err.code).toBe("network_error");
    expect(err.maybeAccepted).toBe(true);
    expect(err.message).toContain("may have been accepted");
    expect(server.requests).toHaveLength(1);
  });

  it("retries a submission whose connection was refused (never sent), then reports a network error", async () => {
    const port = await closedPort();
    client = new WebDataClient({ baseUrl: `http://127.0.0.1:${port}`, apiKey: "refused-key-1234567" });
    const err = await failure(client.extractAsync({ url: "https://example.com" }));
    expect(err.code).toBe("network_error");
    expect(err.maybeAccepted).toBe(false);
    expect(err.message).toContain("after 4 attempts");
    expect(err.message).toContain("ECONNREFUSED");
  });

  it("times out a read that gets no answer, retrying it", async () => {
    const { server, client } = await setup(() => {}, { timeouts: { headersMs: 200 }, maxAttempts: 2 });
    const err = await failure(client.getTask(TASK.id));
    expect(err.code).toBe("timeout");
    expect(server.requests).toHaveLength(2);
  });

  it("does not re-send a submission that timed out after it was sent", async () => {
    const { server, client } = await setup(() => {}, { timeouts: { headersMs: 200 } });
    const err = await failure(client.serp({ search_engine: "engine1_search", query: "q" }));
    expect(err.code).toBe("timeout");
    expect(err.maybeAccepted).toBe(true);
    expect(server.requests).toHaveLength(1);
  });

  it("stops retrying when cancelled during a backoff wait", async () => {
    const { server, client } = await setup((_req, res) => json(res, 429, rateLimited(5)), {}, false);
    const controller = new AbortController();
    const pending = client.getTask(TASK.id, { signal: controller.signal });
    await server.received(1);
    await clock.sleeping(1); // the backoff
    controller.abort();
    const err = await failure(pending);
    expect(err.code).toBe("aborted");
    expect(server.requests).toHaveLength(1);
  });
});

describe("call time limits", () => {
  it("ends a call past its timeoutMs with a timeout, not an abort", async () => {
    const { client } = await setup(() => {
      // never answers
    });
    const err = await failure(client.getTask(TASK.id, { timeoutMs: 300 }));
    expect(err.code).toBe("timeout");
    expect(err.maybeAccepted).toBe(false);
    expect(err.message).toContain("time limit");
  });

  it("says a submission sent before its time ran out may have been accepted", async () => {
    const { server, client } = await setup(() => {
      // never answers
    });
    const err = await failure(
      client.serp({ search_engine: "engine1_search", query: "q" }, { timeoutMs: 300 }),
    );
    expect(err).toMatchObject({ code: "timeout", maybeAccepted: true });
    expect(err.message).toContain("may have been accepted");
    expect(server.requests).toHaveLength(1);
  });

  it("treats a signal aborted for lack of time (AbortSignal.timeout) as a timeout", async () => {
    const { client } = await setup(() => {
      // never answers
    });
    const err = await failure(client.getTask(TASK.id, { signal: AbortSignal.timeout(300) }));
    expect(err.code).toBe("timeout");
  });

  it("flags a cancelled submission that had been sent", async () => {
    const { server, client } = await setup(() => {
      // never answers
    });
    const controller = new AbortController();
    const pending = client.crawl({ url: "https://example.com" }, { signal: controller.signal });
    await server.received(1);
    controller.abort();
    const err = await failure(pending);
    expect(err).toMatchObject({ code: "aborted", maybeAccepted: true });
  });

  it("does not retry past its time limit", async () => {
    const { server, client } = await setup((_req, res) => json(res, 429, rateLimited(2)));
    const err = await failure(client.getTask(TASK.id, { timeoutMs: 1_000 }));
    expect(err.code).toBe("rate_limited");
    expect(server.requests).toHaveLength(1);
  });
});
