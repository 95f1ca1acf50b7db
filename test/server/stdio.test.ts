/** The built server as a stdio child process: protocol surface, logging, stdout hygiene, CLI commands. */
import { spawn } from "node:child_process";
import { readFileSync } from "node:fs";
import { afterAll, describe, expect, it } from "vitest";
import type { Sandbox } from "../../src/sandbox/index.js";
import {
  assertBuilt,
  CLI,
  call,
  pathsSince,
  runCli,
  type StdioServer,
  serverForFile,
  spawnServer,
  startSandboxCli,
  TEST_KEY,
  textOf,
  until,
} from "../helpers/mcp.js";

const pkg = JSON.parse(readFileSync(new URL("../../package.json", import.meta.url), "utf8"));
let sandbox: Sandbox;
let server: StdioServer;

serverForFile((started) => {
  ({ sandbox, server } = started);
});

describe("stdio server", () => {
  it("initializes as web-data with tools, logging and tasks", () => {
    expect(server.client.getServerVersion()).toMatchObject({ name: "web-data", version: pkg.version });
    const caps = server.client.getServerCapabilities();
    expect(caps?.tools).toEqual({ listChanged: true });
    expect(caps?.logging).toEqual({});
    expect(caps?.tasks).toMatchObject({ requests: { tools: { call: {} } }, list: {}, cancel: {} });
    expect(server.client.getInstructions()).toContain("get_task");
  });

  it("lists the default toolsets' tools", async () => {
    const names = (await server.client.listTools()).tools.map((t) => t.name);
    expect(names).toEqual(
      expect.arrayContaining([
        "serp_search",
        "extract_page",
        "extract_batch",
        "crawl_site",
        "map_site",
        "get_task",
      ]),
    );
    expect(names).not.toContain("get_social_event");
  });

  it("before logging/setLevel sends info and above, but no per-call debug lines", async () => {
    const logsSince = (mark: number) =>
      server.notifications.slice(mark).filter((n) => n.method === "notifications/message");
    const quiet = server.notifications.length;
    expect((await call(server, "extract_page", { url: `${sandbox.siteUrl}/` })).isError).toBeFalsy();
    await server.client.ping();
    expect(logsSince(quiet)).toEqual([]);
    const failing = server.notifications.length;
    const r = await call(server, "get_task", { task_id: "00000000-0000-4000-8000-000000000000" });
    expect(r.isError).toBe(true);
    const logs = await until(
      () => logsSince(failing),
      (l) => l.length > 0,
    );
    expect(logs.map((n) => (n.params as { level: string }).level)).toEqual(["info"]);
    expect(JSON.stringify(logs)).toContain("get_task failed");
  });

  it("sends log messages at or above the level the client set", async () => {
    await server.client.setLoggingLevel("debug");
    const before = server.notifications.length;
    await call(server, "extract_page", { url: `${sandbox.siteUrl}/` });
    const logs = await until(
      () => server.notifications.slice(before).filter((n) => n.method === "notifications/message"),
      (l) => l.length > 0,
    );
    expect(JSON.stringify(logs)).toContain("extract_page");
    expect(JSON.stringify(logs)).not.toContain(TEST_KEY);
    await server.client.setLoggingLevel("error");
    const mark = server.notifications.length;
    await call(server, "extract_page", { url: `${sandbox.siteUrl}/` });
    await server.client.ping();
    expect(server.notifications.slice(mark).filter((n) => n.method === "notifications/message")).toEqual([]);
    expect(server.errors).toEqual([]);
  });
});

describe("stdout", () => {
  it("carries nothing but JSON-RPC, even with debug logging and a failing call", async () => {
    assertBuilt();
    const child = spawn(process.execPath, [CLI], {
      env: { PATH: process.env.PATH ?? "", WEBDATA_BASE_URL: sandbox.url, WEBDATA_API_KEY: "wrong-key-zzzz" },
      stdio: ["pipe", "pipe", "pipe"],
    });
    let out = "";
    child.stdout.on("data", (c: Buffer) => {
      out += c.toString("utf8");
    });
    const send = (m: object) => child.stdin.write(`${JSON.stringify(m)}\n`);
    send({
      jsonrpc: "2.0",
      id: 1,
      method: "initialize",
      params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "raw", version: "0" } },
    });
    send({ jsonrpc: "2.0", method: "notifications/initialized" });
    send({ jsonrpc: "2.0", id: 2, method: "logging/setLevel", params: { level: "debug" } });
    send({ jsonrpc: "2.0", id: 3, method: "tools/list" });
    send({
      jsonrpc: "2.0",
      id: 4,
      method: "tools/call",
      params: { name: "extract_page", arguments: { url: "https://example.com/" } },
    });
    send({
      jsonrpc: "2.0",
      id: 5,
      method: "tools/call",
      params: { name: "extract_page", arguments: { url: 42 } },
    });
    await until(
      () => out,
      (o) => o.includes('"id":4') && o.includes('"id":5'),
    );
    const exited = new Promise((r) => child.once("exit", r));
    child.stdin.end();
    await exited;
    const lines = out.split("\n").filter((l) => l !== "");
    expect(lines.length).toBeGreaterThanOrEqual(5);
    for (const line of lines) expect(JSON.parse(line)).toMatchObject({ jsonrpc: "2.0" });
    const unauthorized = lines.map((l) => JSON.parse(l)).find((m) => m.id === 4);
    expect(unauthorized.result.isError).toBe(true);
    expect(unauthorized.result.content[0].text).toMatch(/401.*WEBDATA_API_KEY/);
    expect(out).not.toContain("wrong-key-zzzz");
  });
});

describe("cli(--sandbox)", () => {
  let own: StdioServer;
  afterAll(async () => own?.close());

  it("serves against an in-process sandbox without a key", async () => {
    own = await spawnServer({ args: ["--sandbox"] });
    const r = await call(own, "extract_page", { url: "https://example.com/" });
    expect(r.isError).toBeFalsy();
    expect(r.structuredContent).toMatchObject({
      status: "done",
      url: "https://example.com/",
      format: "markdown",
    });
    expect(textOf(r)).toContain("example.com");
  });
});

describe("cli(tools, call)", () => {
  const run = runCli;

  it("tools --sandbox prints one line per tool", async () => {
    const r = await run(["tools", "--sandbox"]);
    expect(r.status).toBe(0);
    const lines = r.stdout.trim().split("\n");
    expect(lines.find((l) => l.startsWith("serp_search "))).toMatch(/\[search\]\s+Search/);
    expect(lines.length).toBeGreaterThanOrEqual(6);
    // The agent catalog's background refresh ends quietly when the one-shot command closes it.
    expect(r.stderr).not.toMatch(/agent catalog|refresh/i);
  });

  it("call prints the result text, and the structured result with --json", async () => {
    const before = sandbox.requests.length;
    const r = await run(["call", "extract_page", JSON.stringify({ url: `${sandbox.siteUrl}/` }), "--json"], {
      WEBDATA_BASE_URL: sandbox.url,
      WEBDATA_API_KEY: TEST_KEY,
    });
    expect(r.status).toBe(0);
    expect(r.stdout).toContain(`# ${sandbox.siteUrl}/`);
    const json = JSON.parse(r.stdout.slice(r.stdout.indexOf("\n{") + 1));
    expect(json).toMatchObject({ status: "done", format: "markdown" });
    expect(pathsSince(sandbox, before)).toEqual(["POST /v2/extract"]);
  });

  it("call exits 1 with the error text on a bad argument", async () => {
    const r = await run(["call", "extract_page", '{"url":"not a url"}', "--sandbox"]);
    expect(r.status).toBe(1);
    expect(r.stdout).toMatch(/url/);
  });

  it("call rejects arguments that are not a JSON object", async () => {
    const r = await run(["call", "extract_page", "[1]", "--sandbox"]);
    expect(r.status).toBe(2);
    expect(r.stdout).toBe("");
  });
});

describe("cli(sandbox)", () => {
  it("serves the sandbox API alone, accepting only --key, and exits on SIGTERM", async () => {
    const { url, stop } = await startSandboxCli(["--key", "only-this-key-Z"]);
    try {
      expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
      const post = (key: string) =>
        fetch(`${url}/v1/extract`, {
          method: "POST",
          headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
          body: JSON.stringify({ url: "https://example.com/", render: false }),
        });
      expect((await post("only-this-key-Z")).status).toBe(200);
      expect((await post("another-key")).status).toBe(401);
    } finally {
      expect(await stop()).toBe(0);
    }
  });
});
