/** Long tools: progress, cancellation, the deadline handle and resuming it, and MCP tasks. */
import { CallToolResultSchema } from "@modelcontextprotocol/sdk/types.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Sandbox } from "../../src/sandbox/index.js";
import { call, type StdioServer, serverForFile, spawnAgainst, textOf, until } from "../helpers/mcp.js";

let sandbox: Sandbox;
let server: StdioServer;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

serverForFile(
  (started) => {
    ({ sandbox, server } = started);
  },
  { WEBDATA_WAIT_MS: "20000" },
);

describe("progress", () => {
  it.each([
    ["crawl_site", { url: "https://example.com/", limit: 6 }],
    ["extract_batch", { inputs: [1, 2, 3, 4].map((n) => ({ url: `https://example.com/${n}` })) }],
    ["extract_page", { url: "https://example.com/", render: true }],
    ["map_site", { url: "https://example.com/" }],
  ])("%s sends strictly increasing progress while it waits", async (name, args) => {
    sandbox.configure({ taskLatencyMs: 600, crawlPageMs: 100 });
    const seen: Array<{ progress: number; total?: number }> = [];
    const r = await server.client.callTool({ name, arguments: args }, undefined, {
      onprogress: (p) => seen.push(p),
    });
    sandbox.configure({ taskLatencyMs: 100, crawlPageMs: 20 });
    expect(r.isError).toBeFalsy();
    expect(seen.length).toBeGreaterThan(0);
    for (let i = 1; i < seen.length; i++) expect(seen[i].progress).toBeGreaterThan(seen[i - 1].progress);
  });
});

describe("cancellation", () => {
  it("extract_page(render): aborting the call stops polling the task within a second", async () => {
    sandbox.configure({ taskLatencyMs: 60_000 });
    const controller = new AbortController();
    let polled = 0;
    const pending = server.client.callTool(
      { name: "extract_page", arguments: { url: "https://example.com/slow", render: true } },
      undefined,
      { signal: controller.signal, onprogress: () => polled++ },
    );
    await until(
      () => polled,
      (n) => n >= 2,
    );
    const taskPath = sandbox.requests.find((q) => q.path.startsWith("/v1/tasks/") && q.at > 0)?.path ?? "";
    const cancelledAt = Date.now();
    controller.abort();
    await expect(pending).rejects.toThrow();
    await sleep(1500);
    sandbox.configure({ taskLatencyMs: 100 });
    const late = sandbox.requests.filter((q) => q.at > cancelledAt + 1000 && q.path.startsWith("/v1/tasks/"));
    expect(taskPath).not.toBe("");
    expect(late).toEqual([]);
    await server.client.ping();
  });
});

describe("deadline", () => {
  let short: StdioServer;
  beforeAll(async () => {
    short = await spawnAgainst(sandbox, { WEBDATA_WAIT_MS: "300" });
  });
  afterAll(async () => short?.close());

  it.each([
    ["extract_page", { url: "https://example.com/", render: true }, "task_id"],
    ["map_site", { url: "https://example.com/" }, "task_id"],
    ["extract_batch", { inputs: [{ url: "https://example.com/a" }] }, "batch_id"],
    ["crawl_site", { url: "https://example.com/", limit: 3 }, "crawl_id"],
  ])("%s returns a resumable handle, and get_task then returns the result", async (name, args, field) => {
    sandbox.configure({ taskLatencyMs: 1500, crawlPageMs: 600 });
    const r = await call(short, name, args);
    expect(r.isError).toBeFalsy();
    const handle = r.structuredContent;
    expect(handle).toMatchObject({ status: "pending", state: expect.any(String) });
    const id = handle[field];
    expect(id).toEqual(expect.any(String));
    expect(handle.resume).toEqual({ tool: "get_task", arguments: { [field]: id } });
    expect(textOf(r)).toContain(id);
    expect(textOf(r)).toContain(JSON.stringify({ [field]: id }));
    sandbox.configure({ taskLatencyMs: 100, crawlPageMs: 20 });
    const done = await until(
      () => call(short, "get_task", handle.resume.arguments),
      (g) => g.structuredContent?.status === "done",
      100,
    );
    expect(done.isError).toBeFalsy();
    if (field === "task_id")
      expect(done.structuredContent.content ?? done.structuredContent.urls).toBeTruthy();
    else expect(done.structuredContent.pages.length).toBeGreaterThan(0);
  });
});

describe("MCP tasks", () => {
  it("extract_page(task): a client that asks for a task gets one, sees it listed and reads its result", async () => {
    const stream = server.client.experimental.tasks.callToolStream(
      { name: "extract_page", arguments: { url: "https://example.com/", render: true } },
      CallToolResultSchema,
      { task: { ttl: 60_000 } },
    );
    const kinds: string[] = [];
    let taskId = "";
    let result: any;
    for await (const message of stream) {
      kinds.push(message.type);
      if (message.type === "taskCreated") {
        taskId = message.task.taskId;
        const listed = await server.client.experimental.tasks.listTasks();
        expect(listed.tasks.map((t) => t.taskId)).toContain(taskId);
      }
      if (message.type === "result") result = message.result;
      if (message.type === "error") throw message.error;
    }
    expect(kinds[0]).toBe("taskCreated");
    expect(result.structuredContent).toMatchObject({ status: "done", format: "markdown" });
    expect((await server.client.experimental.tasks.getTask(taskId)).status).toBe("completed");
  });

  it("crawl_site(task): cancelling the task stops its polling", async () => {
    sandbox.configure({ crawlPageMs: 60_000 });
    const stream = server.client.experimental.tasks.callToolStream(
      { name: "crawl_site", arguments: { url: "https://example.com/", limit: 3 } },
      CallToolResultSchema,
      { task: { ttl: 60_000 } },
    );
    const first = await stream.next();
    expect(first.value?.type).toBe("taskCreated");
    const taskId = (first.value as { task: { taskId: string } }).task.taskId;
    await until(
      () => sandbox.requests.filter((q) => q.path.startsWith("/v1/crawl/")).length,
      (n) => n >= 1,
    );
    const cancelled = await server.client.experimental.tasks.cancelTask(taskId);
    const cancelledAt = Date.now();
    expect(cancelled.status).toBe("cancelled");
    await stream.return(undefined);
    await sleep(1500);
    sandbox.configure({ crawlPageMs: 20 });
    expect(
      sandbox.requests.filter((q) => q.at > cancelledAt + 1000 && q.path.startsWith("/v1/crawl/")),
    ).toEqual([]);
  });

  it("calls made without a task stay out of tasks/list", async () => {
    await call(server, "extract_page", { url: "https://example.com/" });
    const listed = await server.client.experimental.tasks.listTasks();
    for (const t of listed.tasks) expect(t.ttl).toBe(60_000);
  });
});
