import { PNG } from "pngjs";
import { describe, expect, it } from "vitest";
import { TaskCallbackBodySchema } from "../../src/api/schemas.js";
import { useSandbox } from "../helpers/sandbox.js";
import { call, shape, startReceiver, until } from "./helpers.js";
import {
  BatchDetailSchema,
  BatchListResponseSchema,
  BatchProgressSchema,
  BatchSubmissionSchema,
  TaskIdResponseSchema,
  TaskListResponseSchema,
  TaskResultSchema,
  TaskStatusResponseSchema,
} from "./spec-shapes.js";

describe("extract, tasks and batches", () => {
  const sandbox = useSandbox({ taskLatencyMs: 30, allowCallbacks: true });

  const waitTask = (id: string) =>
    until(
      () => call(sandbox, "GET", `/v1/tasks/${id}`),
      (r) => r.body.task.state !== "pending",
    );

  it("sync extract returns markdown only by default", async () => {
    const r = await call(sandbox, "POST", "/v1/extract", { body: { url: `${sandbox.siteUrl}/shop` } });
    expect(r.status).toBe(200);
    const result = shape(TaskResultSchema, r.body);
    expect(result.status).toBe("success");
    expect(Object.keys(result.data)).toEqual(["markdown"]);
    expect(result.data.markdown).toContain("Trailblazer Hiking Boots");
    expect(result.metadata?.driver).toBe("vx6");
    expect(result.metadata?.response_parameters).toEqual({ input_url: `${sandbox.siteUrl}/shop` });
    expect(result.status_code).toBe(200);
  });

  it("sync extract honours every format", async () => {
    const url = `${sandbox.siteUrl}/shop/products/summit-40l-backpack`;
    const r = await call(sandbox, "POST", "/v1/extract", {
      body: { url, formats: ["html", "markdown", "headers", "links", "screenshot"] },
    });
    const result = shape(TaskResultSchema, r.body);
    expect(result.data.html).toContain('<h1 class="product-name">Summit 40L Backpack</h1>');
    expect(result.data.headers?.["content-type"]).toContain("text/html");
    expect(result.data.links).toContain(`${sandbox.siteUrl}/shop`);
    expect(result.metadata?.driver).toBe("vx8");
    const shot = (result.data.screenshots as { format: string; data: string }[])[0];
    expect(shot.format).toBe("png");
    const png = PNG.sync.read(Buffer.from(shot.data, "base64"));
    expect(png.width).toBeGreaterThan(0);
  });

  it("reports the target's 404 as a successful task with status_code 404", async () => {
    const r = await call(sandbox, "POST", "/v1/extract", {
      body: { url: `${sandbox.siteUrl}/missing-page` },
    });
    expect(r.body.status).toBe("success");
    expect(r.body.status_code).toBe(404);
  });

  it("makes a deterministic synthetic page for URLs outside the demo site", async () => {
    const body = { url: "https://example.com/news/today", formats: ["markdown"] };
    const a = await call(sandbox, "POST", "/v1/extract", { body });
    const b = await call(sandbox, "POST", "/v1/extract", { body });
    expect(a.body.data.markdown).toContain("example.com");
    expect(a.body.data.markdown).toBe(b.body.data.markdown);
  });

  it("keeps a task pending until its latency has passed; results of a pending task are a 400", async () => {
    sandbox.configure({ taskLatencyMs: 60_000 });
    const { body } = await call(sandbox, "POST", "/v1/extract/async", {
      body: { url: `${sandbox.siteUrl}/` },
    });
    sandbox.configure({ taskLatencyMs: 30 });
    const status = shape(
      TaskStatusResponseSchema,
      (await call(sandbox, "GET", `/v1/tasks/${body.task_id}`)).body,
    );
    expect(status.task.state).toBe("pending");
    expect(status.task.download_url).toBeUndefined();
    const results = await call(sandbox, "GET", `/v1/tasks/${body.task_id}/results`);
    expect(results.status).toBe(400);
    expect(results.body.error.code).toBe("BAD_REQUEST");
  });

  it("async extract goes pending → success, with legacy status and download URLs", async () => {
    const submitted = shape(
      TaskIdResponseSchema,
      (await call(sandbox, "POST", "/v1/extract/async", { body: { url: `${sandbox.siteUrl}/blog` } })).body,
    );
    const first = shape(
      TaskStatusResponseSchema,
      (await call(sandbox, "GET", `/v1/tasks/${submitted.task_id}`)).body,
    );
    expect(first.task.status_url).toBe(`${sandbox.legacyUrl}/api/v1/tasks/${submitted.task_id}`);
    const done = shape(TaskStatusResponseSchema, (await waitTask(submitted.task_id)).body);
    expect(done.task).toMatchObject({ state: "success", api_type: "extract", status_code: 200 });
    const legacyStatus = await call(sandbox, "GET", String(done.task.status_url));
    expect(legacyStatus.body.task.id).toBe(submitted.task_id);
    const viaLegacy = await call(sandbox, "GET", String(done.task.download_url));
    const result = shape(TaskResultSchema, viaLegacy.body);
    expect(result.task_id).toBe(submitted.task_id);
    expect(result.data.markdown).toContain("Blog");
  });

  it("ends a task for an unreachable host in error", async () => {
    const { body } = await call(sandbox, "POST", "/v1/extract/async", {
      body: { url: "http://invalid.invalid/" },
    });
    const done = await waitTask(body.task_id);
    expect(done.body.task.state).toBe("error");
    expect(done.body.task.error).toContain("invalid.invalid");
    expect(done.body.task.error_type).toBe("dns_error");
    const results = await call(sandbox, "GET", `/v1/tasks/${body.task_id}/results`);
    expect(results.body).toMatchObject({ status: "error", error_type: "dns_error" });
  });

  it("404s an unknown task", async () => {
    const r = await call(sandbox, "GET", "/v1/tasks/00000000-0000-4000-8000-000000000000");
    expect(r.status).toBe(404);
    expect(r.body.error.code).toBe("NOT_FOUND");
  });

  it("lists tasks newest first with a cursor", async () => {
    for (let i = 0; i < 3; i++) {
      await call(sandbox, "POST", "/v1/extract/async", { body: { url: `${sandbox.siteUrl}/docs` } });
    }
    const first = shape(TaskListResponseSchema, (await call(sandbox, "GET", "/v1/tasks?limit=2")).body);
    expect(first.tasks).toHaveLength(2);
    expect(first.next_cursor).toBeTruthy();
    const second = shape(
      TaskListResponseSchema,
      (await call(sandbox, "GET", `/v1/tasks?limit=2&cursor=${first.next_cursor}`)).body,
    );
    const ids = new Set([...first.tasks, ...second.tasks].map((t) => t.id));
    expect(ids.size).toBe(4);
    expect((await call(sandbox, "GET", "/v1/tasks?limit=0")).status).toBe(422);
    expect((await call(sandbox, "GET", "/v1/tasks?cursor=%25%25")).status).toBe(422);
  });

  it("runs a batch whose tasks finish progressively; items override shared inputs", async () => {
    // a spread long enough (0.5-1 s) for polling to observe several distinct progress values
    sandbox.configure({ taskLatencyMs: 500 });
    const inputs = Array.from({ length: 20 }, (_, i) => ({ url: `${sandbox.siteUrl}/blog?i=${i}` }));
    inputs[0] = { ...inputs[0], formats: ["html"] } as (typeof inputs)[0];
    const submitted = shape(
      BatchSubmissionSchema,
      (
        await call(sandbox, "POST", "/v1/extract/batch", {
          body: { inputs, shared_inputs: { formats: ["links"], render: false } },
        })
      ).body,
    );
    sandbox.configure({ taskLatencyMs: 30 });
    expect(submitted.batch_size).toBe(20);
    expect(submitted.tasks?.every((t) => t.batch_id === submitted.batch_id)).toBe(true);
    const seen = new Set<number>();
    const final = await until(
      async () =>
        shape(
          BatchProgressSchema,
          (await call(sandbox, "GET", `/v1/batches/${submitted.batch_id}/progress`)).body,
        ),
      (p) => {
        seen.add(p.completed_count ?? -1);
        return p.completed === true;
      },
      10,
    );
    expect(final).toEqual({ completed_count: 20, total: 20, progress: 1, completed: true });
    expect(seen.size).toBeGreaterThan(1);
    const detail = shape(
      BatchDetailSchema,
      (await call(sandbox, "GET", `/v1/batches/${submitted.batch_id}`)).body,
    );
    expect(detail.tasks.map((t) => t.state)).toEqual(Array(20).fill("success"));
    const firstResult = await call(sandbox, "GET", `/v1/tasks/${detail.tasks[0].id}/results`);
    expect(Object.keys(firstResult.body.data)).toEqual(["html"]);
    const secondResult = await call(sandbox, "GET", `/v1/tasks/${detail.tasks[1].id}/results`);
    expect(Object.keys(secondResult.body.data)).toEqual(["links"]);
    const list = shape(BatchListResponseSchema, (await call(sandbox, "GET", "/v1/batches")).body);
    expect(list.batches.map((b) => b.batch_id)).toContain(submitted.batch_id);
    expect((await call(sandbox, "GET", "/v1/batches/nope/progress")).status).toBe(404);
  });

  it("takes a 1,000-item batch", async () => {
    const inputs = Array.from({ length: 1000 }, (_, i) => ({ url: `https://shop${i}.example/item` }));
    const r = await call(sandbox, "POST", "/v1/extract/batch", { body: { inputs, shared_inputs: {} } });
    expect(r.status).toBe(200);
    expect(r.body.batch_size).toBe(1000);
    const tooMany = await call(sandbox, "POST", "/v1/extract/batch", {
      body: { inputs: [...inputs, { url: "https://one.more/" }], shared_inputs: {} },
    });
    expect(tooMany.status).toBe(422);
    expect(tooMany.body.detail[0].loc).toEqual(["body", "inputs"]);
  });

  it("POSTs the task to callback_url on completion", async () => {
    const receiver = await startReceiver();
    try {
      const url = `${sandbox.siteUrl}/about`;
      const { body } = await call(sandbox, "POST", "/v1/extract/async", {
        body: { url, callback_url: `${receiver.url}/hook` },
      });
      const [delivery] = await receiver.waitFor(1);
      expect(delivery.path).toBe("/hook");
      const payload = shape(TaskCallbackBodySchema, delivery.body);
      expect(payload.task).toMatchObject({
        id: body.task_id,
        state: "success",
        status_code: 200,
        api_type: "extract",
      });
      expect(payload.task.input).toMatchObject({ url });
    } finally {
      await receiver.close();
    }
  });

  it("survives a callback URL nobody listens on", async () => {
    const { body } = await call(sandbox, "POST", "/v1/extract/async", {
      body: { url: `${sandbox.siteUrl}/about`, callback_url: "http://127.0.0.1:9/closed" },
    });
    const done = await waitTask(body.task_id);
    expect(done.body.task.state).toBe("success");
  });
});
