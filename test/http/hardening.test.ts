/**
 * The attack run's findings on the HTTP endpoint, as repros that must now fail to reproduce:
 * sessions bound to the credential that opened them, a session cap per credential beside the
 * global one, idle expiry that counts requests, bounded per-key clients (and so limiters), the
 * 413 code, and a full IPv6 loopback Host.
 */
import { describe, expect, it } from "vitest";
import { Limiters, MAX_LIMITERS } from "../../src/api/rate-limiter.js";
import { useHttpServerOn } from "../helpers/http-server.js";
import { useSandbox } from "../helpers/sandbox.js";
import { connect, INITIALIZE, raw } from "./helpers.js";

const KEY = "wdk_hardenQZXJVKWPRT";
const OTHER = "wdk_otherHGZXQRTMNPK";
let clock = Date.now();

const sandbox = useSandbox();
const http = useHttpServerOn(sandbox, KEY, {
  server: { maxSessions: 6, maxSessionsPerPrincipal: 3, maxClients: 4, now: () => clock },
});

const ping = (sessionId: string, headers: Record<string, string> = {}) =>
  raw(http.url, {
    headers: { "mcp-session-id": sessionId, "mcp-protocol-version": "2025-06-18", ...headers },
    body: { jsonrpc: "2.0", id: 2, method: "ping" },
  });

async function open(headers: Record<string, string> = {}) {
  const res = await raw(http.url, { headers, body: INITIALIZE });
  return { status: res.status, id: res.headers["mcp-session-id"] as string | undefined, res };
}

describe("sessions are bound to the credential that opened them", () => {
  it("answers another key, or no key, with 404; they cannot read or DELETE it", async () => {
    const a = await connect(http.url, { "X-Webdata-Api-Key": OTHER });
    const id = a.transport.sessionId!;
    try {
      expect((await ping(id, { "x-webdata-api-key": OTHER })).status).toBe(200);
      expect((await ping(id)).status).toBe(404);
      expect((await ping(id, { "x-webdata-api-key": KEY })).status).toBe(404);
      const del = await raw(http.url, { method: "DELETE", headers: { "mcp-session-id": id } });
      expect(del.status).toBe(404);
      const resume = await raw(http.url, {
        headers: { "mcp-session-id": id, accept: "text/event-stream", "last-event-id": "x_1" },
      });
      expect(resume.status).toBe(404);
      expect(await a.client.ping()).toEqual({});
    } finally {
      await a.close();
    }
  });
});

describe("session caps", () => {
  it("caps one principal's sessions by evicting its least recently used, never locking it out", async () => {
    const flooder = { "x-webdata-api-key": "wdk_flooderAAAAAAAAAA" };
    const mine: string[] = [];
    for (let i = 0; i < 3; i++) {
      const s = await open(flooder);
      expect(s.status).toBe(200);
      mine.push(s.id!);
    }
    clock += 1;
    expect((await ping(mine[0], flooder)).status).toBe(200);
    clock += 1;
    const fourth = await open(flooder);
    expect(fourth.status).toBe(200);
    // mine[1] was the least recently used (mine[0] was just pinged): it is gone, the rest live.
    expect((await ping(mine[1], flooder)).status).toBe(404);
    expect((await ping(mine[0], flooder)).status).toBe(200);
    mine.splice(1, 1, fourth.id!);
    const other = await open();
    expect(other.status).toBe(200);
    for (const id of [...mine, other.id!]) {
      const headers: Record<string, string> =
        id === other.id ? {} : { "x-webdata-api-key": "wdk_flooderAAAAAAAAAA" };
      expect(
        (await raw(http.url, { method: "DELETE", headers: { "mcp-session-id": id, ...headers } })).status,
      ).toBe(200);
    }
  });

  it("answers 503 past the global cap, and frees places as sessions go idle", async () => {
    const held: string[] = [];
    for (let i = 0; held.length < 6 && i < 6; i++) {
      const s = await open({ "x-webdata-api-key": `wdk_globalcap${i}XXXXXXX` });
      if (s.status === 200) held.push(s.id!);
    }
    const full = await open({ "x-webdata-api-key": "wdk_latecomerXXXXXXXX" });
    expect(full.status).toBe(503);
    // Truthful: when the oldest session expires unless used (not a fixed 60 s).
    const retryAfter = Number(full.res.headers["retry-after"]);
    expect(retryAfter).toBeGreaterThan(0);
    expect(retryAfter).toBeLessThanOrEqual(30 * 60);
    clock += 31 * 60_000;
    expect((await open({ "x-webdata-api-key": "wdk_latecomerXXXXXXXX" })).status).toBe(200);
    clock += 31 * 60_000;
    await http.sweepIdle();
  });
});

describe("idle expiry counts requests", () => {
  it("keeps a session that keeps making requests and closes one that does not", async () => {
    const busy = await open();
    const quiet = await open();
    clock += 20 * 60_000;
    expect((await ping(busy.id!)).status).toBe(200);
    clock += 20 * 60_000;
    expect(await http.sweepIdle()).toBeGreaterThanOrEqual(1);
    expect((await ping(busy.id!)).status).toBe(200);
    expect((await ping(quiet.id!)).status).toBe(404);
  });
});

describe("per-key clients (and their rate limiters) are bounded", () => {
  it("keeps at most maxClients however many keys are tried", async () => {
    for (let i = 0; i < 12; i++) await open({ "x-webdata-api-key": `wdk_random${i}QQQQQQQQQ` });
    const health = (await raw(http.url.replace(/\/mcp$/, "/healthz"))).json();
    expect(health.clients).toBeLessThanOrEqual(4);
    clock += 31 * 60_000;
    await http.sweepIdle();
  });
});

describe("the per-key rate limiters are bounded", () => {
  it("keeps at most MAX_LIMITERS however many keys are tried (was +47 MB for 100,000 keys)", () => {
    const limiters = new Limiters();
    for (let i = 0; i < MAX_LIMITERS + 500; i++)
      limiters.sharedLimiter(`wdk_random_${i}`, "http://127.0.0.1:1", 83);
    expect(limiters.size).toBeLessThanOrEqual(MAX_LIMITERS);
  });
});

describe("request errors", () => {
  it("answers a body over the limit with 413 and an Invalid Request code, not a parse error", async () => {
    const res = await raw(http.url, { body: { ...INITIALIZE, pad: "x".repeat(5 * 1024 * 1024) } });
    expect(res.status).toBe(413);
    expect(res.json().error.code).toBe(-32600);
  });

  it("serves an IPv6 loopback Host written in full like [::1]", async () => {
    const port = new URL(http.url).port;
    const res = await raw(http.url, { headers: { host: `[0:0:0:0:0:0:0:1]:${port}` }, body: INITIALIZE });
    expect(res.status).toBe(200);
    expect(res.headers["mcp-session-id"]).toBeDefined();
  });
});
