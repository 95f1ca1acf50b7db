/**
 * Protocol answers over stdio (issue 23): a malformed line gets a JSON-RPC parse error and the
 * server keeps serving; invalid params of a protocol method get -32602 naming the field, with the
 * `MCP error -32602:` prefix once; a second `initialize` is refused; a failed MCP task carries a
 * `statusMessage`. The server is the built binary in `--sandbox` mode, spoken to line by line.
 */
import { type ChildProcessWithoutNullStreams, spawn } from "node:child_process";
import { CallToolResultSchema } from "@modelcontextprotocol/sdk/types.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Sandbox } from "../../src/sandbox/index.js";
import { assertBuilt, CLI, type StdioServer, serverForFile, until } from "../helpers/mcp.js";

const INIT = {
  jsonrpc: "2.0",
  id: 0,
  method: "initialize",
  params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "raw", version: "1" } },
};

/** The server as a child spoken to in raw lines; `answer(id)` waits for the response with that id. */
function rawServer() {
  assertBuilt();
  const child: ChildProcessWithoutNullStreams = spawn(process.execPath, [CLI, "--sandbox"], {
    env: { PATH: process.env.PATH ?? "" },
  });
  let out = "";
  let err = "";
  child.stdout.on("data", (c: Buffer) => {
    out += c.toString("utf8");
  });
  child.stderr.on("data", (c: Buffer) => {
    err += c.toString("utf8");
  });
  const lines = () =>
    out
      .split("\n")
      .filter((l) => l.trim() !== "")
      .map((l) => JSON.parse(l) as { id?: unknown; error?: { code: number; message: string }; result?: any });
  return {
    send: (message: unknown) =>
      child.stdin.write(`${typeof message === "string" ? message : JSON.stringify(message)}\n`),
    answer: (id: unknown) =>
      until(
        () => lines().find((l) => l.id === id && ("error" in l || "result" in l)),
        (l) => l !== undefined,
      ),
    lines,
    stderr: () => err,
    stop: () => {
      child.kill("SIGTERM");
      return new Promise((resolve) => child.once("exit", resolve));
    },
  };
}

let server: ReturnType<typeof rawServer>;
beforeAll(async () => {
  server = rawServer();
  server.send(INIT);
  await server.answer(0);
  server.send({ jsonrpc: "2.0", method: "notifications/initialized" });
});
afterAll(async () => {
  await server?.stop();
});

describe("stdio protocol answers", () => {
  it("answers a malformed line with a parse error (-32700) and keeps serving", async () => {
    server.send("{this is not json");
    const parse = await until(
      () => server.lines().find((l) => l.error?.code === -32700),
      (l) => l !== undefined,
    );
    expect(parse?.id).toBeNull();
    server.send({ jsonrpc: "2.0", id: 11, method: "ping" });
    expect((await server.answer(11))?.result).toEqual({});
  });

  it.each([
    ["logging/setLevel", { level: "loud" }, "params.level"],
    ["tasks/get", {}, "params.taskId"],
    ["tasks/result", { taskId: 7 }, "params.taskId"],
    ["resources/read", { uri: { nested: true } }, "params.uri"],
  ])("answers invalid params of %s with -32602 naming the field", async (method, params, field) => {
    const id = `bad-${method}`;
    server.send({ jsonrpc: "2.0", id, method, params });
    const answer = await server.answer(id);
    expect(answer?.error?.code).toBe(-32602);
    expect(answer?.error?.message).toContain(field);
    expect(answer?.error?.message).not.toMatch(/MCP error/);
    expect(answer?.error?.message.length).toBeLessThan(400);
  });

  it("sends a -32602 message without the SDK's `MCP error -32602:` prefix (the client adds it once)", async () => {
    server.send({ jsonrpc: "2.0", id: 21, method: "tools/call", params: { arguments: {} } });
    const answer = await server.answer(21);
    expect(answer?.error?.code).toBe(-32602);
    expect(answer?.error?.message).toMatch(/name/);
    expect(answer?.error?.message).not.toMatch(/MCP error/);
  });

  it("answers a JSON array (a batch) with -32600 saying batches are not supported, and keeps serving", async () => {
    const before = server.lines().length;
    server.send([
      { jsonrpc: "2.0", id: 41, method: "ping" },
      { jsonrpc: "2.0", id: 42, method: "ping" },
    ]);
    const refusal = await until(
      () =>
        server
          .lines()
          .slice(before)
          .find((l) => l.error?.code === -32600),
      (l) => l !== undefined,
    );
    expect(refusal?.id).toBeNull();
    expect(refusal?.error?.message).toBe(
      "Invalid Request: JSON-RPC batches (a JSON array) are not supported; send one message per line",
    );
    server.send({ jsonrpc: "2.0", id: 43, method: "ping" });
    expect((await server.answer(43))?.result).toEqual({});
  });

  it("answers arguments nested 100,000 levels deep with invalid_argument naming the limit, no stack trace", async () => {
    const N = 100_000;
    const deep = `${'{"a":'.repeat(N)}1${"}".repeat(N)}`;
    server.send(
      `{"jsonrpc":"2.0","id":44,"method":"tools/call","params":{"name":"serp_search","arguments":{"search_engine":"engine1_search","query":${deep}}}}`,
    );
    const answer = await server.answer(44);
    expect(answer?.error).toBeUndefined();
    expect(answer?.result?.isError).toBe(true);
    expect(answer?.result?._meta?.["web-data/error"]?.code).toBe("invalid_argument");
    expect(answer?.result?.content?.[0]?.text).toContain("more than 64 levels deep");
    server.send({ jsonrpc: "2.0", id: 45, method: "ping" });
    expect((await server.answer(45))?.result).toEqual({});
    expect(server.stderr()).not.toMatch(/RangeError|Maximum call stack|\n\s+at /);
  });

  it("refuses a second initialize", async () => {
    server.send({ ...INIT, id: 31 });
    const answer = await server.answer(31);
    expect(answer?.result).toBeUndefined();
    expect(answer?.error?.code).toBe(-32600);
    expect(answer?.error?.message).toMatch(/already initialized/);
  });
});

describe("MCP tasks", () => {
  let sandbox: Sandbox;
  let stdio: StdioServer;
  serverForFile((started) => {
    ({ sandbox, server: stdio } = started);
  });

  it("a failed task carries a statusMessage saying why", async () => {
    sandbox.faults.add({ kind: "task_error", count: 1 });
    const stream = stdio.client.experimental.tasks.callToolStream(
      { name: "extract_page", arguments: { url: "https://example.com/", render: true } },
      CallToolResultSchema,
      { task: { ttl: 60_000 } },
    );
    let taskId = "";
    for await (const message of stream) {
      if (message.type === "taskCreated") taskId = message.task.taskId;
    }
    const task = await stdio.client.experimental.tasks.getTask(taskId);
    expect(task.status).toBe("failed");
    expect(task.statusMessage).toMatch(/\S/);
    expect(task.statusMessage?.length).toBeLessThanOrEqual(300);
  });
});
