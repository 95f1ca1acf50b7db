/**
 * `notifications/tools/list_changed` over Streamable HTTP (issue 23 items 5–6): a real SDK client's
 * notification handler fires on its session's standalone GET stream when the agent catalog
 * changes on the sandbox, and with two replicas sharing Redis a change one replica sees reaches a
 * session whose stream another replica holds (which refreshes its own list first).
 */
import { ToolListChangedNotificationSchema } from "@modelcontextprotocol/sdk/types.js";
import { afterAll, describe, expect, it } from "vitest";
import type { HttpServer } from "../../src/server/http.js";
import { detail, prop } from "../agents/fixtures.js";
import { startHttpServerOn, useHttpServer } from "../helpers/http-server.js";
import { until } from "../helpers/mcp.js";
import { useRedis } from "../helpers/redis.js";
import { useSandbox } from "../helpers/sandbox.js";
import { type Connected, connect } from "./helpers.js";

const KEY = "list-changed-key";
const NEW_AGENT = "brand_new_agent";
const AGENT_TOOLS = `ecommerce_search_listing,${NEW_AGENT}`;

/** Connects an SDK client that counts the tools/list_changed it hears. */
async function listening(url: string): Promise<Connected & { heard(): number }> {
  const connected = await connect(url);
  let heard = 0;
  connected.client.setNotificationHandler(ToolListChangedNotificationSchema, async () => {
    heard += 1;
  });
  return { ...connected, heard: () => heard };
}

const streamsOpen = async (http: HttpServer) =>
  ((await (await fetch(http.url.replace(/\/mcp$/, "/healthz"))).json()) as { streams_open: number })
    .streams_open;

const hasNewAgent = async (c: Connected) =>
  (await c.client.listTools()).tools.some((t) => t.name === `agent_${NEW_AGENT}`);

/**
 * Until the server's catalog list is in: before it, the agent not in the catalog yet is listed
 * with a permissive schema, and its leaving is a change of its own. A probe session waits for it,
 * so the session under test hears only the change the test makes.
 */
async function catalogSettled(url: string): Promise<void> {
  const probe = await connect(url);
  try {
    await until(
      () => hasNewAgent(probe),
      (listed) => !listed,
    );
  } finally {
    await probe.close();
  }
}

const newAgent = () => detail(NEW_AGENT, [prop({ name: "query", type: "string", required: true })]);

describe("tools/list_changed on one replica", () => {
  const fx = useHttpServer(KEY, {
    env: { WEBDATA_AGENT_TOOLS: AGENT_TOOLS, WEBDATA_CATALOG_REFRESH_MS: "100" },
  });

  it("reaches the SDK client's handler on its standalone GET stream after a catalog change", async () => {
    await catalogSettled(fx.http.url);
    const c = await listening(fx.http.url);
    try {
      expect(await hasNewAgent(c)).toBe(false);
      await until(
        () => streamsOpen(fx.http),
        (n) => n === 1,
      );
      fx.sandbox.catalog.add(newAgent());
      await until(c.heard, (n) => n > 0);
      expect(await hasNewAgent(c)).toBe(true);
    } finally {
      fx.sandbox.catalog.remove(NEW_AGENT);
      await c.close();
    }
    // DELETE ended the session: its stream is closed.
    await until(
      () => streamsOpen(fx.http),
      (n) => n === 0,
    );
  });
});

describe("tools/list_changed across two replicas sharing Redis", () => {
  const redis = useRedis();
  const sandbox = useSandbox({ key: KEY });
  const replicas: HttpServer[] = [];
  const start = (refreshMs: number) =>
    startHttpServerOn(sandbox, KEY, {
      env: { WEBDATA_AGENT_TOOLS: AGENT_TOOLS, WEBDATA_CATALOG_REFRESH_MS: String(refreshMs) },
      server: { redisUrl: redis.url },
    }).then((http) => {
      replicas.push(http);
      return http;
    });
  afterAll(async () => {
    for (const http of replicas.splice(0)) await http.shutdown(0);
  });

  it("a change replica A sees reaches a session on replica B, whose own list follows", async () => {
    // B refreshes its catalog once at start, then not for an hour: only A's news can tell it.
    const b = await start(3_600_000);
    await catalogSettled(b.url);
    const c = await listening(b.url);
    try {
      expect(await hasNewAgent(c)).toBe(false);
      await until(
        () => streamsOpen(b),
        (n) => n === 1,
      );
      await start(100);
      sandbox.catalog.add(newAgent());
      await until(c.heard, (n) => n > 0);
      expect(await hasNewAgent(c)).toBe(true);
    } finally {
      await c.close();
    }
  });
});
