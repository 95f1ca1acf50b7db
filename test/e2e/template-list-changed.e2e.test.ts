/**
 * A template change reaches connected clients as `notifications/tools/list_changed` (issue 24 §3):
 * `generate_template` creates a template named in WEBDATA_AGENT_TOOLS, then a second version of it
 * (another description, one more param); `manage_template` publishes the first version again
 * (the listed tool's description and input schema change back), renames the record (no listed
 * tool changes: no notification) and deletes it. Each change refreshes the agent catalog at once
 * (no periodic refresh runs here: WEBDATA_CATALOG_REFRESH_MS is an hour), so the dedicated
 * `agent_<name>` tool appears, changes and goes, and the client hears each change, and only those:
 * over stdio and over Streamable HTTP (the session's standalone GET stream).
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
  call(
    name: string,
    args: Record<string, unknown>,
  ): Promise<{ isError?: boolean; text: string; structured?: Record<string, any> }>;
  tools(): Promise<Array<{ name: string; description?: string; inputSchema?: { properties?: object } }>>;
  heard(): number;
}
type Listed = Awaited<ReturnType<Client["tools"]>>[number];

const FIRST = "Title and price of a trail boot";
const SECOND = "Title, price and colour of a trail boot";

async function templateLife(client: Client) {
  // The catalog is in: the named template does not exist yet, so its tool is not listed.
  await until(client.tools, (tools) => !tools.some((t) => t.name === TOOL));
  const step = async (name: string, args: Record<string, unknown>, listed: (t?: Listed) => boolean) => {
    const before = client.heard();
    const r = await client.call(name, args);
    expect(r.isError, r.text).toBeFalsy();
    await until(client.heard, (n) => n > before);
    const tools = await client.tools();
    expect(listed(tools.find((t) => t.name === TOOL)), `${name}: ${TOOL} listed as expected`).toBe(true);
    return r;
  };
  const params = (t?: Listed) => Object.keys(t?.inputSchema?.properties ?? {});
  const first = await step(
    "generate_template",
    { prompt: FIRST, url: "https://shop.example.com/p/1", name: NAME },
    (t) => t?.description?.startsWith(FIRST) === true && !params(t).includes("colour"),
  );
  // A second version, with another description and one more param, becomes the current one.
  await step(
    "generate_template",
    {
      prompt: SECOND,
      url: "https://shop.example.com/p/1",
      name: NAME,
      input_schema: {
        type: "object",
        properties: { url: { type: "string", description: "Page URL" }, colour: { type: "string" } },
        required: ["url"],
      },
    },
    (t) => t?.description?.startsWith(SECOND) === true && params(t).includes("colour"),
  );
  // The update publishes the first version again: the listed tool changes back, and the client hears it.
  await step(
    "manage_template",
    { action: "update", template: NAME, published_version_id: first.structured?.version.id },
    (t) => t?.description?.startsWith(FIRST) === true && !params(t).includes("colour"),
  );
  // An update of the record's display name changes no listed tool: no list_changed. The tools/list
  // after it is answered on the same stream after any notification the update made.
  const quiet = client.heard();
  const renamed = await client.call("manage_template", {
    action: "update",
    template: NAME,
    patch: [{ op: "replace", path: "/display_name", value: "Boot page v2" }],
  });
  expect(renamed.isError, renamed.text).toBeFalsy();
  await client.tools();
  expect(client.heard(), "list_changed after an update that changed no listed tool").toBe(quiet);
  await step("manage_template", { action: "delete", template: NAME }, (t) => t === undefined);
  expect(client.heard(), "one list_changed for the delete, none for the rename before it").toBe(quiet + 1);
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
        return { isError: r.isError, text: textOf(r), structured: r.structuredContent };
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
        return {
          isError: r.isError as boolean | undefined,
          text: JSON.stringify(r.content),
          structured: r.structuredContent as Record<string, any> | undefined,
        };
      },
      tools: async () => (await c.client.listTools()).tools,
      heard: () => heard,
    });
  });
});
