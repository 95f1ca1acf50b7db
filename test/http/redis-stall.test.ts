/**
 * Issue 23 item 3, "every command has a timeout that fails the call clearly": when Redis stops
 * answering (connections open, no replies), a request that needs it gets a 503 saying so instead
 * of hanging. Before, no Redis command had a timeout and the request waited for ever (this test
 * then ends at its own timeout).
 */
import { describe, expect, it } from "vitest";
import { useHttpServer } from "../helpers/http-server.js";
import { INITIALIZE, raw } from "./helpers.js";

const fx = useHttpServer("wdk_stallQZXJVKWPRTM", { redis: true });

describe("a stalled Redis", () => {
  it("fails a request that needs it with a clear 503, not a hang", async () => {
    const opened = await raw(fx.http.url, { body: INITIALIZE });
    expect(opened.status, opened.body).toBe(200);
    const session = String(opened.headers["mcp-session-id"]);
    fx.redis.stall();
    const res = await raw(fx.http.url, {
      headers: { "mcp-session-id": session, "mcp-protocol-version": "2025-06-18" },
      body: { jsonrpc: "2.0", id: 2, method: "ping" },
    });
    expect(res.status).toBe(503);
    expect(res.body).toMatch(/Redis/);
  });
});
