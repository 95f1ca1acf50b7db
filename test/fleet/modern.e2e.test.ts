/**
 * Revision 2026-07-28 behind the fleet (issue 32): three replicas behind nginx in plain round
 * robin (scripts/fleet.mjs: no sticky routing), sharing Redis. New-era requests carry no session,
 * so consecutive requests land on different replicas and each answers alone; meanwhile a 2025
 * client keeps its session (a record in Redis) across those same replicas.
 */
import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { connect, textOf } from "../http/helpers.js";
import { type Fleet, type RemoteSandbox, startFleet, startRemoteSandbox } from "./harness.js";

const KEY = "wdk_fleetMODERNqzxjvkwp";
let sandbox: RemoteSandbox;
let fleet: Fleet;

beforeAll(async () => {
  sandbox = await startRemoteSandbox(KEY);
  fleet = await startFleet({ replicas: 3, env: { WEBDATA_API_KEY: KEY, WEBDATA_BASE_URL: sandbox.url } });
}, 60_000);

afterAll(async () => {
  await fleet?.stop();
  await sandbox?.close();
});

describe("2026-07-28 clients and 2025 sessions on one round-robin fleet", () => {
  it("a pinned v2 client's requests are served by every replica while a 2025 session lives on", async () => {
    const legacy = await connect(fleet.url);
    const modern = new Client(
      { name: "fleet-modern", version: "1.0.0" },
      { versionNegotiation: { mode: { pin: "2026-07-28" } } },
    );
    await modern.connect(new StreamableHTTPClientTransport(new URL(fleet.url)));
    try {
      const sessionId = legacy.transport.sessionId;
      expect(sessionId).toBeTruthy();
      // Six rounds: in round robin over three replicas every replica serves new-era requests,
      // and the 2025 session's requests land on each replica too.
      for (let i = 0; i < 6; i++) {
        const page = `${sandbox.siteUrl}/p${i}`;
        const fresh = await modern.callTool({ name: "extract_page", arguments: { url: page } });
        expect(fresh.isError ?? false, textOf(fresh)).toBe(false);
        expect((await modern.listTools()).tools.length).toBeGreaterThan(5);
        const old = await legacy.client.callTool({ name: "extract_page", arguments: { url: page } });
        expect(old.isError ?? false, textOf(old)).toBe(false);
      }
      expect(legacy.transport.sessionId).toBe(sessionId);
      expect(modern.getProtocolEra()).toBe("modern");
      for (const replica of fleet.replicas) expect(replica.alive()).toBe(true);
    } finally {
      await modern.close();
      await legacy.close();
    }
  });
});
