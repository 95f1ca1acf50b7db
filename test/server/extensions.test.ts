/** Server extensions: tools added after connect reach the client (list_changed, fresh tools/list). */
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import { ToolListChangedNotificationSchema } from "@modelcontextprotocol/sdk/types.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { loadConfig } from "../../src/config.js";
import { createServer, type WebDataServer } from "../../src/server/create-server.js";
import { serpSearch } from "../../src/tools/serp-search.js";
import { defineTool, type ServerHost } from "../../src/tools/tool.js";

const echo = defineTool({
  name: "agent_echo",
  title: "Echo",
  description: "Echo a word.",
  toolset: "agents",
  input: { word: z.string() },
  output: { word: z.string() },
  readOnly: true,
  async handler(args) {
    return { structured: { word: args.word }, text: args.word };
  },
});

let app: WebDataServer;
let client: Client;
let host: ServerHost | undefined;

beforeAll(async () => {
  const config = loadConfig({ WEBDATA_API_KEY: "k_unused_here", WEBDATA_BASE_URL: "http://127.0.0.1:9" });
  app = createServer({
    config,
    tools: [serpSearch],
    extensions: [
      (h) => {
        host = h;
        h.services.echoes = 0;
      },
    ],
  });
  const [a, b] = InMemoryTransport.createLinkedPair();
  client = new Client({ name: "ext-test", version: "0" });
  await app.server.connect(b);
  await client.connect(a);
  await app.ready;
});
afterAll(async () => {
  await client.close();
  await app.close();
});

describe("server extensions", () => {
  it("get the host with services and can add tools later", async () => {
    expect(host?.services.echoes).toBe(0);
    expect((await client.listTools()).tools.map((t) => t.name)).toEqual(["serp_search"]);
    const changed = new Promise<void>((resolve) =>
      client.setNotificationHandler(ToolListChangedNotificationSchema, () => resolve()),
    );
    host!.addTool(echo);
    await changed;
    expect((await client.listTools()).tools.map((t) => t.name)).toEqual(["serp_search", "agent_echo"]);
    const r = await client.callTool({ name: "agent_echo", arguments: { word: "hi" } });
    expect(r.structuredContent).toEqual({ word: "hi" });
  });

  it("a removed tool leaves the cached list too", async () => {
    app.tools.get("agent_echo")!.remove();
    expect((await client.listTools()).tools.map((t) => t.name)).toEqual(["serp_search"]);
  });
});
