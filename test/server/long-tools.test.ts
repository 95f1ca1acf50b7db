/** Long tools: progress, cancellation, the deadline handle and resuming it, and MCP tasks. */
import { CallToolResultSchema, ErrorCode, type McpError } from "@modelcontextprotocol/sdk/types.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Sandbox } from "../../src/sandbox/index.js";
import {
  call,
  requestsSince,
  type StdioServer,
  serverForFile,
  spawnAgainst,
  textOf,
  until,
} from "../helpers/mcp.js";

let sandbox: Sandbox;
let server: StdioServer;

/** Waits for the server's log line saying the tool's work ended as aborted (its stderr). */
const workAborted = (tool: string, seen: number) =>
  until(
    () => server.stderr().split(`tool ${tool} failed: aborted`).length - 1,
    (n) => n > seen,
  );
const abortedSoFar = (tool: string) => server.stderr().split(`tool ${tool} failed: aborted`).length - 1;

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
  it("extract_page(render): aborting the call ends its work, which polls no more", async () => {
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
    const taskPath = sandbox.requests.findLast((q) => q.path.startsWith("/v2/tasks/"))?.path ?? "";
    expect(taskPath).not.toBe("");
    const seen = abortedSoFar("extract_page");
    controller.abort();
    await expect(pending).rejects.toThrow();
    await workAborted("extract_page", seen);
    const after = sandbox.requests.length;
    // A full call afterwards: had the aborted work kept polling, its requests would show up meanwhile.
    sandbox.configure({ taskLatencyMs: 100 });
    await call(server, "extract_page", { url: "https://example.com/after", render: true });
    expect(sandbox.requests.slice(after).filter((q) => q.path === taskPath)).toEqual([]);
  });
});

describe("deadline", () => {
  let short: StdioServer;
  beforeAll(async () => {
    // The wait also covers the submission, so it leaves a loaded machine time for that; the
    // work takes longer than the wait.
    short = await spawnAgainst(sandbox, { WEBDATA_WAIT_MS: "1500" });
  });
  afterAll(async () => short?.close());

  it.each([
    ["extract_page", { url: "https://example.com/", render: true }, "task_id"],
    ["extract_batch", { inputs: [{ url: "https://example.com/a" }] }, "batch_id"],
    ["crawl_site", { url: "https://example.com/", limit: 3 }, "crawl_id"],
  ])("%s returns a resumable handle, and get_task then returns the result", async (name, args, field) => {
    sandbox.configure({ taskLatencyMs: 4_000, crawlPageMs: 1_500 });
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
    if (field === "task_id") expect(done.structuredContent.chars ?? done.structuredContent.urls).toBeTruthy();
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

  it("crawl_site(task): cancelling the task ends its work, and tasks/result says it was cancelled", async () => {
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
      () => sandbox.requests.filter((q) => q.path.startsWith("/v2/crawl/")).length,
      (n) => n >= 1,
    );
    const crawlPath = sandbox.requests.findLast((q) => q.path.startsWith("/v2/crawl/"))?.path ?? "";
    const seen = abortedSoFar("crawl_site");
    const cancelled = await server.client.experimental.tasks.cancelTask(taskId);
    expect(cancelled.status).toBe("cancelled");
    await stream.return(undefined);
    await workAborted("crawl_site", seen);
    const after = sandbox.requests.length;
    sandbox.configure({ crawlPageMs: 20 });
    await call(server, "crawl_site", { url: "https://example.com/", limit: 2 });
    expect(sandbox.requests.slice(after).filter((q) => q.path === crawlPath)).toEqual([]);
    const result = server.client.experimental.tasks.getTaskResult(taskId, CallToolResultSchema);
    await expect(result).rejects.toThrow(/was cancelled, so it has no result/);
    await expect(result).rejects.toMatchObject({ code: ErrorCode.InvalidParams });
  });

  it("calls made without a task create none", async () => {
    const before = (await server.client.experimental.tasks.listTasks()).tasks.length;
    await call(server, "extract_page", { url: "https://example.com/" });
    expect((await server.client.experimental.tasks.listTasks()).tasks).toHaveLength(before);
  });

  it("extract_page(task) with a bad argument: a failed task with the isError result naming it, nothing sent", async () => {
    const from = sandbox.requests.length;
    const stream = server.client.experimental.tasks.callToolStream(
      { name: "extract_page", arguments: { url: "not a url", render: "yes" } },
      CallToolResultSchema,
      { task: { ttl: 60_000 } },
    );
    const messages = [];
    for await (const m of stream) messages.push(m);
    const created = messages.find((m) => m.type === "taskCreated") as {
      task: { taskId: string; status: string };
    };
    expect(created.task.status).toBe("failed");
    const result = await server.client.experimental.tasks.getTaskResult(
      created.task.taskId,
      CallToolResultSchema,
    );
    expect(result.isError).toBe(true);
    expect(textOf(result)).toMatch(/invalid_argument.*Invalid arguments for extract_page/s);
    expect(textOf(result)).toMatch(/- `url`: /);
    expect(textOf(result)).toMatch(/- `render` /);
    expect(requestsSince(sandbox, from)).toEqual([]);
  });

  it("serp_search(task): a tool without task support answers -32601 and runs nothing", async () => {
    const from = sandbox.requests.length;
    const stream = server.client.experimental.tasks.callToolStream(
      { name: "serp_search", arguments: { query: "coffee" } },
      CallToolResultSchema,
      { task: { ttl: 60_000 } },
    );
    const messages = [];
    for await (const m of stream) messages.push(m);
    const error = (messages[0] as { type: "error"; error: McpError }).error;
    expect(error.code).toBe(ErrorCode.MethodNotFound);
    expect(error.message).toMatch(/serp_search does not support tasks/);
    expect(requestsSince(sandbox, from)).toEqual([]);
  });
});
