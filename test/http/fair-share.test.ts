/**
 * Issue 23 item 4: one principal's burst of long work waits in its own queue. Alice starts five
 * MCP tasks with two slots: the sandbox sees two submissions and three wait; Bob's long call
 * meanwhile goes straight through, and Alice's queue is unchanged when it is done. Read from the
 * sandbox's request log and /healthz, not from timings (the delay is measured in `npm run bench`).
 */
import { CallToolResultSchema, CreateTaskResultSchema } from "@modelcontextprotocol/sdk/types.js";
import { describe, expect, it, vi } from "vitest";
import type { Authenticator, Identity } from "../../src/server/http/auth/authenticate.js";
import { useHttpServer } from "../helpers/http-server.js";
import { connect, raw, textOf } from "./helpers.js";

const KEY = "wdk_fairQZXJVKWPRTMN";
const user = (sub: string): Identity => ({ kind: "oauth", issuer: "x", subject: sub });
const authenticate: Authenticator = (request) => {
  const sub = request.headers.get("authorization")?.replace(/^Bearer /, "");
  return sub ? { ok: true, identity: user(sub) } : { ok: false, status: 401, message: "Unauthorized" };
};

const fx = useHttpServer(KEY, {
  sandbox: { taskLatencyMs: 600_000 },
  server: { authenticate, fairShare: { maxRunning: 2 } },
});

const submissions = (from: number) =>
  fx.sandbox.requests
    .slice(from)
    .filter((r) => r.method === "POST" && /^\/v[12]\/extract\/async$/.test(r.path));
const waiting = async () =>
  (
    await raw(fx.http.url.replace(/\/mcp$/, "/healthz"), { headers: { authorization: "Bearer alice" } })
  ).json().long_calls_waiting as number;
const page = (path: string) => ({
  name: "extract_page",
  arguments: { url: `${fx.sandbox.siteUrl}/${path}`, render: true, max_chars: 300 },
});

describe("fair share of long work", () => {
  it("queues one principal's burst in its own lane; another principal's call is not behind it", async () => {
    const alice = await connect(fx.http.url, { authorization: "Bearer alice" });
    const bob = await connect(fx.http.url, { authorization: "Bearer bob" });
    try {
      const from = fx.sandbox.requests.length;
      for (let i = 0; i < 5; i++) {
        await alice.client.request(
          { method: "tools/call", params: { ...page(`burst-${i}`), task: { ttl: 600_000 } } },
          CreateTaskResultSchema,
        );
      }
      await vi.waitFor(async () => expect(await waiting()).toBe(3), { timeout: 10_000, interval: 50 });
      expect(submissions(from)).toHaveLength(2);
      fx.sandbox.configure({ taskLatencyMs: 50 });
      const theirs = await bob.client.callTool(page("bob"), CallToolResultSchema);
      expect(theirs.isError, textOf(theirs)).toBeFalsy();
      const seen = submissions(from);
      expect(seen).toHaveLength(3);
      expect(await waiting()).toBe(3);
    } finally {
      await alice.close();
      await bob.close();
    }
  });
});
