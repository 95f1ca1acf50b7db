/**
 * The HTTP transport end to end: the real server (`startHttpServer`) against the real sandbox,
 * driven by the SDK's `StreamableHTTPClientTransport` over loopback, plus raw requests for the
 * refusals (forged Host, bad Origin, missing token).
 */
import { describe, expect, it } from "vitest";
import { startHttpServer } from "../../src/server/http.js";
import { useHttpServerOn } from "../helpers/http-server.js";
import { useSandbox } from "../helpers/sandbox.js";
import { connect, connectFails, INITIALIZE, raw, sandboxConfig, textOf } from "./helpers.js";

const KEY = "wdk_httpTESTkeyQZXJVKW";
const TOKEN = "tok_Zr8pW2mQ9vX4nB7kL1";

let clock = Date.now();

const sandbox = useSandbox({ key: KEY, taskLatencyMs: 100 });
const open = useHttpServerOn(sandbox, KEY, { server: { now: () => clock } });
const guarded = useHttpServerOn(sandbox, KEY, { server: { token: TOKEN } });

describe("tools over Streamable HTTP", () => {
  it("lists the same tools as stdio and runs serp_search then extract_page on the sandbox", async () => {
    const c = await connect(open.url);
    try {
      const { tools } = await c.client.listTools();
      const names = tools.map((t) => t.name);
      expect(names).toEqual(expect.arrayContaining(["serp_search", "extract_page", "get_task"]));

      const serp = await c.client.callTool({
        name: "serp_search",
        arguments: { search_engine: "engine1_search", query: "tent" },
      });
      expect(serp.isError, textOf(serp)).toBeFalsy();
      const results = (serp.structuredContent as { results: Array<{ url: string }> }).results;
      expect(results.length).toBeGreaterThan(0);

      const page = await c.client.callTool({ name: "extract_page", arguments: { url: results[0].url } });
      expect(page.isError, textOf(page)).toBeFalsy();
      expect(textOf(page).length).toBeGreaterThan(50);

      const rendered = await c.client.callTool({
        name: "extract_page",
        arguments: { url: results[0].url, render: true },
      });
      expect(rendered.isError, textOf(rendered)).toBeFalsy();
      expect(textOf(rendered)).not.toContain(KEY);
    } finally {
      await c.close();
    }
  });

  it("keeps each session apart and ends one on DELETE", async () => {
    const a = await connect(open.url);
    const b = await connect(open.url);
    const before = await open.sessionCount();
    expect(a.transport.sessionId).toBeDefined();
    expect(a.transport.sessionId).not.toBe(b.transport.sessionId);
    const id = a.transport.sessionId!;
    await a.transport.terminateSession();
    expect(await open.sessionCount()).toBe(before - 1);
    const after = await raw(open.url, {
      headers: { "mcp-session-id": id, "mcp-protocol-version": "2025-06-18" },
      body: { jsonrpc: "2.0", id: 2, method: "tools/list" },
    });
    expect(after.status).toBe(404);
    expect((await b.client.ping()) ?? {}).toEqual({});
    await a.client.close();
    await b.close();
  });

  it("closes sessions idle past the timeout", async () => {
    const c = await connect(open.url);
    const id = c.transport.sessionId!;
    clock += 31 * 60_000;
    expect(await open.sweepIdle()).toBeGreaterThanOrEqual(1);
    const after = await raw(open.url, {
      headers: { "mcp-session-id": id },
      body: { jsonrpc: "2.0", id: 2, method: "ping" },
    });
    expect(after.status).toBe(404);
    await c.client.close();
  });

  it("answers 400 to a request without session that is not initialize", async () => {
    const res = await raw(open.url, { body: { jsonrpc: "2.0", id: 1, method: "tools/list" } });
    expect(res.status).toBe(400);
    expect(res.json().error.code).toBe(-32000);
  });
});

describe("HTTP edges", () => {
  it("answers a body that is not JSON with a JSON-RPC parse error", async () => {
    const res = await raw(open.url, {
      method: "POST",
      headers: { "content-type": "application/json", accept: "application/json, text/event-stream" },
      body: undefined,
    });
    expect(res.status).toBe(400);
    expect(res.json().error.code).toBe(-32700);
  });

  it("answers other methods with 405 and unknown paths with 404", async () => {
    expect((await raw(open.url, { method: "PUT" })).status).toBe(405);
    expect((await raw(open.url.replace(/\/mcp$/, "/nope"))).status).toBe(404);
  });

  it("answers a CORS preflight from an allowed Origin, and refuses one from elsewhere", async () => {
    const port = new URL(open.url).port;
    const ok = await raw(open.url, { method: "OPTIONS", headers: { origin: `http://127.0.0.1:${port}` } });
    expect(ok.status).toBe(204);
    expect(ok.headers["access-control-allow-origin"]).toBe(`http://127.0.0.1:${port}`);
    expect(String(ok.headers["access-control-allow-headers"])).toContain("mcp-session-id");
    const evil = await raw(open.url, { method: "OPTIONS", headers: { origin: "http://evil.example.com" } });
    expect(evil.status).toBe(403);
    expect(evil.headers["access-control-allow-origin"]).toBeUndefined();
  });
});

describe("DNS-rebinding protection", () => {
  it("refuses a forged Host with 403 and a JSON-RPC error body", async () => {
    const res = await raw(open.url, { headers: { host: "evil.example.com" }, body: INITIALIZE });
    expect(res.status).toBe(403);
    expect(res.json()).toMatchObject({ jsonrpc: "2.0", error: { code: -32000 }, id: null });
    const wrongPort = await raw(open.url, { headers: { host: "127.0.0.1:1" }, body: INITIALIZE });
    expect(wrongPort.status).toBe(403);
  });

  it("refuses a foreign Origin with 403, for the SDK client too", async () => {
    const res = await raw(open.url, { headers: { origin: "http://evil.example.com" }, body: INITIALIZE });
    expect(res.status).toBe(403);
    const error = await connectFails(open.url, { Origin: "http://evil.example.com" });
    expect((error as { code?: number }).code).toBe(403);
    expect(error.message).toMatch(/Origin is not allowed/);
  });

  it("accepts the loopback Origin of its own port", async () => {
    const port = new URL(open.url).port;
    const c = await connect(open.url, { Origin: `http://localhost:${port}` });
    await c.close();
  });
});

describe("access token", () => {
  it("answers 401 without a token or with a wrong one", async () => {
    const none = await raw(guarded.url, { body: INITIALIZE });
    expect(none.status).toBe(401);
    expect(none.headers["www-authenticate"]).toMatch(/^Bearer/);
    expect(none.body).not.toContain(TOKEN);
    const wrong = await raw(guarded.url, { headers: { authorization: "Bearer nope" }, body: INITIALIZE });
    expect(wrong.status).toBe(401);
    const error = await connectFails(guarded.url, { Authorization: `Bearer ${TOKEN}x` });
    expect((error as { code?: number }).code).toBe(401);
    expect(error.message).not.toContain(TOKEN);
  });

  it("serves a client that sends the token", async () => {
    const c = await connect(guarded.url, { Authorization: `Bearer ${TOKEN}` });
    const serp = await c.client.callTool({
      name: "serp_search",
      arguments: { search_engine: "engine1_search", query: "boots" },
    });
    expect(serp.isError, textOf(serp)).toBeFalsy();
    await c.close();
  });

  it("checks Host before the token; /healthz says only ok unless the caller is authenticated", async () => {
    const forged = await raw(guarded.url, { headers: { host: "evil.example.com" }, body: INITIALIZE });
    expect(forged.status).toBe(403);
    const healthUrl = guarded.url.replace(/\/mcp$/, "/healthz");
    const open = await raw(healthUrl);
    expect(open.status).toBe(200);
    expect(open.json()).toEqual({ status: "ok" });
    const wrong = await raw(healthUrl, { headers: { authorization: "Bearer not-the-token" } });
    expect(wrong.json()).toEqual({ status: "ok" });
    const authed = await raw(healthUrl, { headers: { authorization: `Bearer ${TOKEN}` } });
    expect(authed.json()).toMatchObject({
      status: "ok",
      sessions: expect.any(Number),
      uptime_s: expect.any(Number),
    });
    expect(authed.body).not.toContain(TOKEN);
    expect(authed.body).not.toContain(KEY);
  });

  it("refuses to listen beyond loopback without a token", async () => {
    const config = sandboxConfig(sandbox, KEY);
    await expect(startHttpServer({ config, host: "0.0.0.0", port: 0, log: () => {} })).rejects.toThrow(
      /WEBDATA_HTTP_TOKEN/,
    );
  });
});
