/**
 * Issue 23 item 4, "headers never choose the key": the session cap counts the principal (here the
 * static access token), not the `x-webdata-api-key` header a caller sends beside it. Before, the
 * cap was per credential and the credential included that unchecked header, so one token with a
 * new made-up key per session was never capped (it filled the global 10,000 in 33 s).
 */
import { describe, expect, it } from "vitest";
import { useHttpServer } from "../helpers/http-server.js";
import { INITIALIZE, raw } from "./helpers.js";

const KEY = "wdk_capkeyQZXJVKWPRT";
const TOKEN = "tok_capkeyQZXJVKWPRTMNB";
const CAP = 3;
const fx = useHttpServer(KEY, { server: { token: TOKEN, maxSessionsPerPrincipal: CAP } });

const headersOf = (i: number) => ({
  authorization: `Bearer ${TOKEN}`,
  "x-webdata-api-key": `wdk_madeUp${String(i).padStart(10, "Q")}`,
});

describe("the session cap with the key header", () => {
  it("counts the token's sessions whatever key each one names; the least recently used go", async () => {
    const opened: Array<{ id: string; i: number }> = [];
    for (let i = 0; i < CAP * 2; i++) {
      const res = await raw(fx.http.url, { headers: headersOf(i), body: INITIALIZE });
      expect(res.status, res.body).toBe(200);
      opened.push({ id: String(res.headers["mcp-session-id"]), i });
    }
    const alive: number[] = [];
    for (const { id, i } of opened) {
      const ping = await raw(fx.http.url, {
        headers: { ...headersOf(i), "mcp-session-id": id, "mcp-protocol-version": "2025-06-18" },
        body: { jsonrpc: "2.0", id: 2, method: "ping" },
      });
      if (ping.status === 200) alive.push(i);
    }
    expect(alive).toEqual([3, 4, 5]);
  });
});
