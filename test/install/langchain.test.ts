/**
 * An LLM agent framework's MCP adapter: LangChain's `MultiServerMCPClient` starts the built
 * server on the sandbox over stdio, loads every tool with its schema, and calls one — the way a
 * LangChain/LangGraph agent would hand the tools to a model and run its tool calls — and the same
 * over Streamable HTTP (`web-data-mcp --http` with a bearer token), as the README shows.
 */
import { MultiServerMCPClient } from "@langchain/mcp-adapters";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CLI, type StdioServer } from "../helpers/mcp.js";
import { type HttpChild, spawnHttpServer } from "../http/child.js";

type LoadedTool = Awaited<ReturnType<MultiServerMCPClient["getTools"]>>[number];

let adapter: MultiServerMCPClient;
let tools: LoadedTool[];
let listed: Awaited<ReturnType<StdioServer["client"]["listTools"]>>["tools"];

beforeAll(async () => {
  adapter = new MultiServerMCPClient({
    throwOnLoadError: true,
    prefixToolNameWithServerName: false,
    // As docs/http-and-fleet.md tells users: a webdata:// link reaches the model as text.
    useStandardContentBlocks: true,
    outputHandling: { resource_link: "artifact" },
    mcpServers: {
      "web-data": {
        transport: "stdio",
        command: process.execPath,
        args: [CLI, "--sandbox"],
        restart: { enabled: false },
      },
    },
  });
  tools = await adapter.getTools();
  // What the server itself lists, for comparison: a plain tools/list of the SDK client under the
  // adapter (the SDK's own Client, on the same server process; a second server only cost a start).
  const client = await adapter.getClient("web-data");
  listed = (await client!.listTools()).tools;
}, 60_000);

afterAll(async () => {
  await adapter?.close();
});

describe("LangChain MCP adapter (MultiServerMCPClient over stdio)", () => {
  it("loads every tool the server lists, each with its description and object schema", () => {
    expect(tools.map((t) => t.name).sort()).toEqual(listed.map((t) => t.name).sort());
    expect(tools.length).toBeGreaterThanOrEqual(6);
    for (const tool of tools) {
      const original = listed.find((t) => t.name === tool.name)!;
      expect(tool.description).toBe(original.description);
      const schema = tool.schema as {
        type?: string;
        properties?: Record<string, unknown>;
        required?: string[];
      };
      expect(schema.type, tool.name).toBe("object");
      expect(Object.keys(schema.properties ?? {}).sort(), tool.name).toEqual(
        Object.keys(original.inputSchema.properties ?? {}).sort(),
      );
      expect([...(schema.required ?? [])].sort(), tool.name).toEqual(
        [...(original.inputSchema.required ?? [])].sort(),
      );
    }
  });

  it("invokes serp_search as an agent's tool call and gets the ranked results", async () => {
    const serp = tools.find((t) => t.name === "serp_search")!;
    const message: any = await serp.invoke({
      type: "tool_call",
      id: "call_1",
      name: "serp_search",
      args: { search_engine: "engine1_search", query: "hiking boots", num_results: 3 },
    });
    expect(message.tool_call_id).toBe("call_1");
    const text = JSON.stringify(message.content);
    expect(text).toContain("hiking boots");
    expect(text).toMatch(/http:\/\/127\.0\.0\.1:\d+\/site\//);
    expect(message.status ?? "success").toBe("success");
  });

  it("the framework enforces the tool's schema before calling the server", async () => {
    const serp = tools.find((t) => t.name === "serp_search")!;
    await expect(serp.invoke({ query: "hiking boots", search_engine: "no_such_engine" })).rejects.toThrow(
      /schema/i,
    );
  });
});

describe("LangChain MCP adapter over Streamable HTTP (web-data-mcp --http, bearer token)", () => {
  const TOKEN = "tok_QZXJVKWPRTMNHGZXQWERT";
  let child: HttpChild | undefined;
  let url: string;

  beforeAll(async () => {
    child = await spawnHttpServer([], { WEBDATA_HTTP_TOKEN: TOKEN });
    url = child.url;
  });

  afterAll(async () => {
    await child?.kill();
  });

  it("refuses a client without the token", async () => {
    const response = await fetch(url, {
      method: "POST",
      headers: { "content-type": "application/json", accept: "application/json, text/event-stream" },
      body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "ping" }),
    });
    expect(response.status).toBe(401);
  });

  it("loads the tools and runs serp_search with the configuration the docs show", async () => {
    const http = new MultiServerMCPClient({
      mcpServers: { "web-data": { url, headers: { Authorization: `Bearer ${TOKEN}` } } },
      useStandardContentBlocks: true,
      outputHandling: { resource_link: "artifact" },
    });
    try {
      const loaded = await http.getTools();
      expect(loaded.map((t) => t.name).sort()).toEqual(listed.map((t) => t.name).sort());
      const serp = loaded.find((t) => t.name === "serp_search")!;
      const content = await serp.invoke({
        search_engine: "engine1_search",
        query: "hiking boots",
        num_results: 2,
      });
      expect(JSON.stringify(content)).toMatch(/http:\/\/127\.0\.0\.1:\d+\/site\//);
    } finally {
      await http.close();
    }
  });
});
