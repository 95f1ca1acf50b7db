import { describe, expect, it } from "vitest";
import { GenericErrorBodySchema, RateLimitErrorBodySchema } from "../../src/api/schemas.js";
import { startSandbox } from "../../src/sandbox/index.js";
import { useSandbox } from "../helpers/sandbox.js";
import { call, KEY, shape } from "./helpers.js";
import { ValidationErrorBodySchema } from "./spec-shapes.js";

describe("sandbox core: auth, rate limit, errors", () => {
  const sandbox = useSandbox({ key: KEY, taskLatencyMs: 20 });

  it("exposes the documented URLs", () => {
    expect(sandbox.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(sandbox.legacyUrl).toBe(`${sandbox.url}/legacy`);
    expect(sandbox.siteUrl).toBe(`${sandbox.url}/site`);
  });

  it("401s a missing key with the error body", async () => {
    const r = await call(sandbox, "GET", "/v1/tasks", { auth: null });
    expect(r.status).toBe(401);
    expect(shape(GenericErrorBodySchema, r.body).error.code).toBe("UNAUTHORIZED");
  });

  it("401s a key other than the configured one", async () => {
    const r = await call(sandbox, "GET", "/v1/tasks", { auth: "Bearer wrong" });
    expect(r.status).toBe(401);
    expect(r.body.error.code).toBe("UNAUTHORIZED");
    expect(r.text).not.toContain("wrong");
  });

  it("accepts any non-empty key when none is configured", async () => {
    const open = await startSandbox();
    try {
      const r = await call(open, "GET", "/v1/tasks", { auth: "Bearer anything" });
      expect(r.status).toBe(200);
      expect((await call(open, "GET", "/v1/tasks", { auth: "Bearer " })).status).toBe(401);
    } finally {
      await open.close();
    }
  });

  it("puts rate-limit headers on every response, errors included", async () => {
    for (const r of [
      await call(sandbox, "GET", "/v1/tasks"),
      await call(sandbox, "GET", "/v1/tasks", { auth: null }),
      await call(sandbox, "GET", "/no/such/route"),
    ]) {
      expect(Number(r.headers.get("x-ratelimit-limit"))).toBe(83);
      expect(Number.isInteger(Number(r.headers.get("x-ratelimit-remaining")))).toBe(true);
      expect(Number(r.headers.get("x-ratelimit-reset"))).toBeGreaterThanOrEqual(
        Math.floor(Date.now() / 1000),
      );
    }
  });

  it("answers an unknown route with the 404 body", async () => {
    const r = await call(sandbox, "GET", "/v9/nothing");
    expect(r.status).toBe(404);
    expect(shape(GenericErrorBodySchema, r.body).error.code).toBe("NOT_FOUND");
  });

  it("answers invalid JSON with a json_invalid 422", async () => {
    const r = await call(sandbox, "POST", "/v1/extract", { raw: "{not json" });
    expect(r.status).toBe(422);
    expect(shape(ValidationErrorBodySchema, r.body).detail[0].type).toBe("json_invalid");
  });

  it("429s past the per-key limit, with retry_after and Retry-After", async () => {
    const limited = await startSandbox({ rateLimit: 3 });
    try {
      const replies = [];
      for (let i = 0; i < 5; i++)
        replies.push(await call(limited, "GET", "/v1/tasks", { auth: "Bearer k1" }));
      const refused = replies.filter((r) => r.status === 429);
      expect(refused.length).toBeGreaterThan(0);
      const body = shape(RateLimitErrorBodySchema, refused[0].body);
      expect(body.error.message).toBe("Rate limit of 3 requests per second exceeded");
      expect(body.error.retry_after).toBeGreaterThanOrEqual(1);
      expect(refused[0].headers.get("retry-after")).toBe(String(body.error.retry_after));
      expect(refused[0].headers.get("x-ratelimit-remaining")).toBe("0");
      // another key has its own bucket
      expect((await call(limited, "GET", "/v1/tasks", { auth: "Bearer k2" })).status).toBe(200);
    } finally {
      await limited.close();
    }
  });

  it("logs API requests with status and auth kind, but not the site or control routes", async () => {
    const before = sandbox.requests.length;
    await call(sandbox, "GET", "/v1/tasks");
    await call(sandbox, "GET", "/site/");
    await call(sandbox, "GET", "/_sandbox/requests");
    const added = sandbox.requests.slice(before);
    expect(added).toEqual([
      { method: "GET", path: "/v1/tasks", status: 200, at: expect.any(Number), auth: "bearer" },
    ]);
  });
});
