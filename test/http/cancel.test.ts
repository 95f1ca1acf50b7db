/**
 * Cancelling a call over Streamable HTTP: the client's `notifications/cancelled` comes in a POST of
 * its own, which runs on a fresh server; it must still reach the server running the call, whose
 * work then ends and polls the API no more (as over stdio).
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Sandbox, startSandbox } from "../../src/sandbox/index.js";
import { type HttpServer, startHttpServer } from "../../src/server/http.js";
import { until } from "../helpers/mcp.js";
import { connect, sandboxConfig } from "./helpers.js";

const KEY = "wdk_httpCANCELkeyQZXJV";

let sandbox: Sandbox;
let http: HttpServer;

beforeAll(async () => {
  sandbox = await startSandbox({ key: KEY, crawlPageMs: 30 });
  http = await startHttpServer({ config: sandboxConfig(sandbox, KEY), port: 0, log: () => {} });
});

afterAll(async () => {
  await http?.shutdown(0);
  await sandbox?.close();
});

const activeRequests = async () =>
  ((await (await fetch(new URL("/healthz", http.url))).json()) as { active_requests: number })
    .active_requests;

describe("cancel over HTTP", () => {
  it("an aborted crawl_site call ends its work on the server, which polls the crawl no more", async () => {
    const { client, close } = await connect(http.url);
    try {
      // A crawl of an hour: only the cancel can end the call's work within the test.
      sandbox.configure({ crawlPageMs: 3_600_000 });
      const controller = new AbortController();
      const before = sandbox.requests.length;
      const pending = client.callTool(
        { name: "crawl_site", arguments: { url: `${sandbox.siteUrl}/`, limit: 3 } },
        undefined,
        { signal: controller.signal },
      );
      pending.catch(() => {});
      const polls = () => sandbox.requests.slice(before).filter((q) => q.path.startsWith("/v1/crawl/"));
      await until(polls, (p) => p.length >= 1);
      const crawlPath = polls()[0].path;
      controller.abort();
      await expect(pending).rejects.toThrow(/abort/i);
      await until(activeRequests, (n) => n === 0);

      sandbox.configure({ crawlPageMs: 30 });
      const after = sandbox.requests.length;
      const next = await client.callTool({
        name: "crawl_site",
        arguments: { url: `${sandbox.siteUrl}/`, limit: 2 },
      });
      expect(next.isError ?? false).toBe(false);
      expect(sandbox.requests.slice(after).filter((q) => q.path === crawlPath)).toEqual([]);
    } finally {
      await close();
    }
  });
});
