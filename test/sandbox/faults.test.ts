import { afterEach, describe, expect, it } from "vitest";
import { GenericErrorBodySchema, RateLimitErrorBodySchema } from "../../src/api/schemas.js";
import { useSandbox } from "../helpers/sandbox.js";
import { call, shape, until } from "./helpers.js";
import { ValidationErrorBodySchema } from "./spec-shapes.js";

describe("fault injection", () => {
  const sandbox = useSandbox({ taskLatencyMs: 10 });
  afterEach(() => sandbox.faults.clear());

  const extractBody = () => ({ body: { url: `${sandbox.siteUrl}/` } });

  it("status: answers each status with its documented body", async () => {
    const codes: Record<number, string> = {
      400: "BAD_REQUEST",
      401: "UNAUTHORIZED",
      402: "PAYMENT_REQUIRED",
      500: "INTERNAL_ERROR",
      502: "BAD_GATEWAY",
      503: "SERVICE_UNAVAILABLE",
      504: "GATEWAY_TIMEOUT",
    };
    for (const [status, code] of Object.entries(codes)) {
      sandbox.faults.add({ kind: "status", status: Number(status), count: 1 });
      const r = await call(sandbox, "GET", "/v1/tasks");
      expect(r.status).toBe(Number(status));
      expect(shape(GenericErrorBodySchema, r.body).error.code).toBe(code);
    }
    sandbox.faults.add({ kind: "status", status: 422, count: 1 });
    shape(ValidationErrorBodySchema, (await call(sandbox, "GET", "/v1/tasks")).body);
    expect((await call(sandbox, "GET", "/v1/tasks")).status).toBe(200);
  });

  it("count: applies to the next N matching requests only", async () => {
    sandbox.faults.add({ kind: "status", status: 503, count: 2, match: "POST /v1/extract" });
    expect((await call(sandbox, "GET", "/v1/tasks")).status).toBe(200);
    expect((await call(sandbox, "POST", "/v1/extract", extractBody())).status).toBe(503);
    expect((await call(sandbox, "POST", "/v1/extract", extractBody())).status).toBe(503);
    expect((await call(sandbox, "POST", "/v1/extract", extractBody())).status).toBe(200);
    expect(sandbox.faults.list()).toEqual([]);
  });

  it("rate_limit: a 429 with retry_after, also asked for by header with a count", async () => {
    sandbox.faults.add({ kind: "rate_limit", retryAfter: 7, count: 1 });
    const r = await call(sandbox, "GET", "/v1/tasks");
    expect(r.status).toBe(429);
    expect(shape(RateLimitErrorBodySchema, r.body).error.retry_after).toBe(7);
    expect(r.headers.get("retry-after")).toBe("7");

    const headers = { "X-Sandbox-Fault": "rate_limit;count=2;retry_after=1" };
    const statuses = [];
    for (let i = 0; i < 3; i++) statuses.push((await call(sandbox, "GET", "/v1/tasks", { headers })).status);
    expect(statuses).toEqual([429, 429, 200]);
  });

  it("match ending in $: the end of METHOD /path, not a longer path", async () => {
    sandbox.faults.add({ kind: "status", status: 503, match: "GET /v1/tasks$" });
    expect((await call(sandbox, "GET", "/v1/tasks/nope/results")).status).not.toBe(503);
    expect((await call(sandbox, "GET", "/v1/tasks")).status).toBe(503);
  });

  it("latency: delays the matching response while others go through", async () => {
    sandbox.faults.add({ kind: "latency", ms: 400, match: "GET /v1/batches", count: 1 });
    const order: string[] = [];
    const slow = call(sandbox, "GET", "/v1/batches").then(() => order.push("slow"));
    await call(sandbox, "GET", "/v1/tasks").then(() => order.push("fast"));
    await slow;
    expect(order).toEqual(["fast", "slow"]);
  });

  it("latency: clearing the faults lets a held request go on at once", async () => {
    sandbox.faults.add({ kind: "latency", ms: 3_600_000, match: "GET /v1/batches", count: 1 });
    const held = call(sandbox, "GET", "/v1/batches");
    // The fault is used up when the request arrives and its hold starts.
    await until(
      () => sandbox.faults.list().length,
      (n) => n === 0,
    );
    sandbox.faults.clear();
    expect((await held).status).toBe(200);
  });

  it("reset: the connection is destroyed before anything is created", async () => {
    const before = (await call(sandbox, "GET", "/v1/tasks?limit=1000")).body.tasks.length;
    sandbox.faults.add({ kind: "reset", count: 1 });
    await expect(call(sandbox, "POST", "/v1/extract/async", extractBody())).rejects.toThrow();
    expect(sandbox.requests.at(-1)).toMatchObject({ path: "/v1/extract/async", status: 0 });
    const after = (await call(sandbox, "GET", "/v1/tasks?limit=1000")).body.tasks.length;
    expect(after).toBe(before);
  });

  it("reset after accept: the task IS created, then the connection is destroyed", async () => {
    const before = (await call(sandbox, "GET", "/v1/tasks?limit=1000")).body.tasks.length;
    await expect(
      call(sandbox, "POST", "/v1/extract/async", {
        ...extractBody(),
        headers: { "X-Sandbox-Fault": "reset;after=accept" },
      }),
    ).rejects.toThrow();
    const after = (await call(sandbox, "GET", "/v1/tasks?limit=1000")).body.tasks.length;
    expect(after).toBe(before + 1);
  });

  it("malformed: a 200 with a JSON content type and a body that is not JSON", async () => {
    sandbox.faults.add({ kind: "malformed", count: 1 });
    const r = await call(sandbox, "POST", "/v1/extract", extractBody());
    expect(r.status).toBe(200);
    expect(r.headers.get("content-type")).toContain("application/json");
    expect(() => JSON.parse(r.text)).toThrow();
  });

  it("task_error: new tasks end in error", async () => {
    sandbox.faults.add({ kind: "task_error", count: 1 });
    const { body } = await call(sandbox, "POST", "/v1/extract/async", extractBody());
    const done = await until(
      () => call(sandbox, "GET", `/v1/tasks/${body.task_id}`),
      (r) => r.body.task.state !== "pending",
    );
    expect(done.body.task).toMatchObject({
      state: "error",
      error: "Target responded with a fatal error",
      error_type: "fetch_error",
    });
    const next = await call(sandbox, "POST", "/v1/extract", extractBody());
    expect(next.body.status).toBe("success");
  });

  it("control endpoints add, list and clear faults and read the request log", async () => {
    const add = await call(sandbox, "POST", "/_sandbox/faults", {
      body: { kind: "status", status: 502, match: "GET /v1/batches" },
      auth: null,
    });
    expect(add.status).toBe(200);
    expect((await call(sandbox, "GET", "/v1/batches")).status).toBe(502);
    expect((await call(sandbox, "GET", "/v1/batches")).status).toBe(502);
    expect((await call(sandbox, "DELETE", "/_sandbox/faults", { auth: null })).status).toBe(200);
    expect((await call(sandbox, "GET", "/v1/batches")).status).toBe(200);
    const bad = await call(sandbox, "POST", "/_sandbox/faults", { body: { kind: "nope" }, auth: null });
    expect(bad.status).toBe(400);
    const log = await call(sandbox, "GET", "/_sandbox/requests", { auth: null });
    expect(log.body.requests.at(-1)).toMatchObject({ method: "GET", path: "/v1/batches", status: 200 });
  });

  it("X-Sandbox-Fault asks for status, malformed and latency faults per request", async () => {
    const status = await call(sandbox, "GET", "/v1/tasks", {
      headers: { "X-Sandbox-Fault": "status;status=503" },
    });
    expect(status.status).toBe(503);
    expect(status.body.error.code).toBe("SERVICE_UNAVAILABLE");
    const malformed = await call(sandbox, "GET", "/v1/tasks", {
      headers: { "X-Sandbox-Fault": "malformed" },
    });
    expect(malformed.status).toBe(200);
    expect(malformed.body).toBeUndefined();
    const order: string[] = [];
    const slow = call(sandbox, "GET", "/v1/batches", {
      headers: { "X-Sandbox-Fault": "latency;ms=400" },
    }).then((r) => order.push(`slow ${r.status}`));
    await call(sandbox, "GET", "/v1/tasks").then(() => order.push("fast"));
    await slow;
    expect(order).toEqual(["fast", "slow 200"]);
    const elsewhere = await call(sandbox, "GET", "/v1/tasks", {
      headers: { "X-Sandbox-Fault": "status;status=500;match=/v1/batches" },
    });
    expect(elsewhere.status).toBe(200);
    const unknown = await call(sandbox, "GET", "/v1/tasks", { headers: { "X-Sandbox-Fault": "explode" } });
    expect(unknown.status).toBe(200);
  });

  it("rejects an invalid fault given in process", () => {
    expect(() => sandbox.faults.add({ kind: "status", status: 299 })).toThrow(/status/);
    expect(() => sandbox.faults.add({ kind: "latency", count: 0 })).toThrow(/count/);
  });
});
