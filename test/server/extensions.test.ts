/** Server extensions: tools set after connect reach the client (one list_changed per change, fresh tools/list). */
import { ToolListChangedNotificationSchema } from "@modelcontextprotocol/sdk/types.js";
import { beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { serpSearch } from "../../src/tools/serp-search.js";
import { defineTool, type ServerHost } from "../../src/tools/tool.js";
import { useInProcessServer } from "../helpers/in-process.js";

// A service of this test's extension, declared the way every part declares its own.
declare module "../../src/tools/tool.js" {
  interface ToolServices {
    echoes?: number;
  }
}

const echo = defineTool({
  name: "agent_echo",
  title: "Echo",
  description: "Echo a word.",
  toolset: "agents",
  input: () => ({ word: z.string() }),
  output: () => ({ word: z.string() }),
  readOnly: true,
  async handler(args) {
    return { structured: { word: args.word }, text: args.word };
  },
});

let host: ServerHost | undefined;

const server = useInProcessServer({
  env: { WEBDATA_API_KEY: "k_unused_here", WEBDATA_BASE_URL: "http://127.0.0.1:9" },
  tools: [serpSearch],
  extensions: [
    (h) => {
      host = h;
      h.services.echoes = 0;
    },
  ],
});
beforeAll(() => server.app.ready);

describe("server extensions", () => {
  it("get the host with services and can set tools later, with one list_changed per change", async () => {
    expect(host?.services.echoes).toBe(0);
    expect((await server.client.listTools()).tools.map((t) => t.name)).toEqual(["serp_search"]);
    let changes = 0;
    const changed = new Promise<void>((resolve) =>
      server.client.setNotificationHandler(ToolListChangedNotificationSchema, () => {
        changes += 1;
        resolve();
      }),
    );
    host!.setTools("agents", [echo]);
    host!.setTools("agents", [echo]); // no change
    host!.setTools("agents", []);
    host!.setTools("agents", [echo]); // changed twice before the client re-read: still one notification
    await changed;
    expect((await server.client.listTools()).tools.map((t) => t.name)).toEqual(["serp_search", "agent_echo"]);
    expect(changes).toBe(1);
    const r = await server.client.callTool({ name: "agent_echo", arguments: { word: "hi" } });
    expect(r.structuredContent).toEqual({ word: "hi" });
  });

  it("a removed tool leaves the list and can no longer be called", async () => {
    host!.setTools("agents", []);
    expect((await server.client.listTools()).tools.map((t) => t.name)).toEqual(["serp_search"]);
    await expect(server.client.callTool({ name: "agent_echo", arguments: { word: "hi" } })).rejects.toThrow(
      /Unknown tool "agent_echo"/,
    );
  });
});
