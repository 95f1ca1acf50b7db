/**
 * The sandbox's two dialects: the sandbox-wide option, the per-request `X-Sandbox-Dialect` header
 * (both ways), `web-data-mcp sandbox --dialect live`, and the live error bodies.
 */
import { spawn } from "node:child_process";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Sandbox, startSandbox } from "../../src/sandbox/index.js";
import { CLI, startSandboxCli } from "../helpers/mcp.js";
import { call, KEY } from "./helpers.js";

const live = { "X-Sandbox-Dialect": "live" };

describe("sandbox dialects", () => {
  let spec: Sandbox;
  let liveSandbox: Sandbox;
  beforeAll(async () => {
    spec = await startSandbox({ key: KEY, taskLatencyMs: 10 });
    liveSandbox = await startSandbox({ key: KEY, taskLatencyMs: 10, dialect: "live" });
  });
  afterAll(async () => {
    await spec.close();
    await liveSandbox.close();
  });

  it("a submission answers {task_id} in spec and {status, task} in live; the header picks per request", async () => {
    const body = { url: "https://example.com/" };
    const a = await call(spec, "POST", "/v1/extract/async", { body });
    expect(a.body).toEqual({ task_id: expect.any(String) });
    const b = await call(spec, "POST", "/v1/extract/async", { body, headers: live });
    expect(b.body).toMatchObject({ status: "ok", task: { id: expect.any(String), state: "queued" } });
    expect(b.body.task_id).toBeUndefined();
    const c = await call(liveSandbox, "POST", "/v1/extract/async", { body });
    expect(c.body.task.id).toBeTypeOf("string");
    const d = await call(liveSandbox, "POST", "/v1/extract/async", {
      body,
      headers: { "X-Sandbox-Dialect": "spec" },
    });
    expect(d.body).toEqual({ task_id: expect.any(String) });
  });

  it("the task list, batch progress, crawl and agents take the live shapes", async () => {
    const list = await call(liveSandbox, "GET", "/v1/tasks?limit=5");
    expect(list.body).toMatchObject({
      data: expect.any(Array),
      pagination: { has_next: expect.any(Boolean) },
    });
    const batch = await call(liveSandbox, "POST", "/v1/extract/batch", {
      body: { inputs: [{ url: "https://example.com/a" }] },
    });
    const id = batch.body.batch.id;
    const progress = await call(liveSandbox, "GET", `/v1/batches/${id}/progress`);
    expect(progress.body.total).toBeUndefined();
    expect(progress.body.completed_count).toBeTypeOf("number");
    const detail = await call(liveSandbox, "GET", `/v1/batches/${id}`);
    expect(detail.body.id).toBe(id);
    expect(detail.body.tasks).toContain(null);
    const crawl = await call(liveSandbox, "POST", "/v1/crawl", {
      body: { url: "https://example.com/", limit: 2 },
    });
    const status = await call(liveSandbox, "GET", `/v1/crawl/${crawl.body.crawl_id}`);
    expect(status.body.crawl).toBeUndefined();
    expect(status.body).toMatchObject({ crawl_id: crawl.body.crawl_id, status: expect.any(String) });
    const agents = await call(liveSandbox, "GET", "/v1/agents?limit=50");
    expect(agents.body.some((a: { managed_by: unknown }) => a.managed_by === null)).toBe(true);
    expect(agents.body.some((a: { managed_by: unknown }) => a.managed_by === "vendor")).toBe(false);
  });

  it("error bodies: {detail} for 401 and 404, 422 unchanged", async () => {
    const nf = await call(liveSandbox, "GET", "/v1/tasks/no-such-task");
    expect(nf.status).toBe(404);
    expect(nf.body).toEqual({ detail: expect.any(String) });
    const unauth = await call(liveSandbox, "GET", "/v1/tasks", { auth: "Bearer wrong" });
    expect(unauth.body).toEqual({ detail: expect.any(String) });
    const bad = await call(liveSandbox, "POST", "/v1/extract", { body: {} });
    expect(bad.status).toBe(422);
    expect(Array.isArray(bad.body.detail)).toBe(true);
  });
});

describe("cli(sandbox --dialect)", () => {
  it("web-data-mcp sandbox --dialect live answers in the live shapes; a bad dialect is a usage error", async () => {
    const { url, stop } = await startSandboxCli(["--dialect", "live"]);
    try {
      const res = await fetch(`${url}/v1/extract/async`, {
        method: "POST",
        headers: { authorization: "Bearer any-key", "content-type": "application/json" },
        body: JSON.stringify({ url: "https://example.com/" }),
      });
      expect(((await res.json()) as { task: { id: string } }).task.id).toBeTypeOf("string");
    } finally {
      expect(await stop()).toBe(0);
    }
    const bad = spawn(process.execPath, [CLI, "sandbox", "--dialect", "klingon"], {
      env: { PATH: process.env.PATH ?? "" },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let err = "";
    bad.stderr.on("data", (c: Buffer) => {
      err += c.toString("utf8");
    });
    const code = await new Promise<number | null>((resolve) => bad.once("exit", resolve));
    expect(code).not.toBe(0);
    expect(err).toContain("--dialect");
  });
});
