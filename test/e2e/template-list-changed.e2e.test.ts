/**
 * A template change reaches connected clients as `notifications/tools/list_changed` (issue 24 §3):
 * `generate_template` creates a template named in WEBDATA_AGENT_TOOLS, `manage_template` updates
 * and then deletes it; generating and deleting each refreshes the agent catalog at once (no periodic refresh runs
 * here: WEBDATA_CATALOG_REFRESH_MS is an hour), so the dedicated `agent_<name>` tool appears,
 * changes and goes, and the client hears each change: over stdio and over Streamable HTTP (the
 * session's standalone GET stream).
 */
import { ToolListChangedNotificationSchema } from "@modelcontextprotocol/sdk/types.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Sandbox } from "../../src/sandbox/index.js";
import { useHttpServer } from "../helpers/http-server.js";
import { call, type StdioServer, spawnAgainst, startTestSandbox, textOf, until } from "../helpers/mcp.js";
import { type Connected, connect } from "../http/helpers.js";

const NAME = "trail_boot_page";
const TOOL = `agent_${NAME}`;
const ENV = { WEBDATA_TOOLSETS: "all", WEBDATA_AGENT_TOOLS: NAME, WEBDATA_CATALOG_REFRESH_MS: "3600000" };

/** The template's life as the test drives it, each step followed by a list change the client hears. */
interface Client {
  call(name: string, args: Record<string, unknown>): Promise<{ isError?: boolean; text: string }>;
  tools(): Promise<Array<{ name: string; description?: string }>>;
  heard(): number;
}

async function templateLife(client: Client) {
  // The catalog is in: the named template does not exist yet, so its tool is not listed.
  await until(client.tools, (tools) => !tools.some((t) => t.name === TOOL));
  const step = async (
    name: string,
    args: Record<string, unknown>,
    listed: (t?: { description?: string }) => boolean,
  ) => {
    const before = client.heard();
    const r = await client.call(name, args);
    expect(r.isError, r.text).toBeFalsy();
    await until(client.heard, (n) => n > before);
    const tools = await client.tools();
    expect(listed(tools.find((t) => t.name === TOOL)), `${name}: ${TOOL} listed as expected`).toBe(true);
  };
  await step(
    "generate_template",
    { prompt: "Title and price", url: "https://shop.example.com/p/1", name: NAME },
    (t) => t !== undefined,
  );
  // An update of the display name changes no listed tool here, so it only must succeed.
  const updated = await client.call("manage_template", {
    action: "update",
    template: NAME,
    patch: [{ op: "replace", path: "/display_name", value: "Boot page v2" }],
  });
  expect(updated.isError, updated.text).toBeFalsy();
  await step("manage_template", { action: "delete", template: NAME }, (t) => t === undefined);
}

describe("over stdio", () => {
  let sandbox: Sandbox;
  let server: StdioServer;
  beforeAll(async () => {
    sandbox = await startTestSandbox({ taskLatencyMs: 30 });
    server = await spawnAgainst(sandbox, ENV);
  });
  afterAll(async () => {
    await server?.close();
    await sandbox?.close();
  });

  it("generate_template, then manage_template update and delete: the client hears the tool come and go", async () => {
    await templateLife({
      call: async (name, args) => {
        const r = await call(server, name, args);
        return { isError: r.isError, text: textOf(r) };
      },
      tools: async () => (await server.client.listTools()).tools,
      heard: () => server.notifications.filter((n) => n.method === "notifications/tools/list_changed").length,
    });
  });
});

describe("over Streamable HTTP", () => {
  const fx = useHttpServer("wdk_tlcQZXJVKWPRTMNG", { sandbox: { taskLatencyMs: 30 }, env: ENV });
  let c: Connected;
  let heard = 0;
  beforeAll(async () => {
    c = await connect(fx.http.url);
    c.client.setNotificationHandler(ToolListChangedNotificationSchema, async () => {
      heard += 1;
    });
  });
  afterAll(async () => {
    await c?.close();
  });

  it("generate_template, then manage_template update and delete: the session hears each change", async () => {
    await templateLife({
      call: async (name, args) => {
        const r = await c.client.callTool({ name, arguments: args });
        return { isError: r.isError as boolean | undefined, text: JSON.stringify(r.content) };
      },
      tools: async () => (await c.client.listTools()).tools,
      heard: () => heard,
    });
  });
});
