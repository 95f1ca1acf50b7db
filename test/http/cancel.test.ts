/**
 * Cancelling a call over Streamable HTTP: the client's `notifications/cancelled` comes in a POST of
 * its own, which runs on a fresh server; it must still reach the server running the call, whose
 * work then ends and polls the API no more (as over stdio).
 */
import { describe, expect, it } from "vitest";
import { useHttpServer } from "../helpers/http-server.js";
import { until } from "../helpers/mcp.js";
import { connect, expectCancelledCrawlLeftAlone } from "./helpers.js";

const KEY = "wdk_httpCANCELkeyQZXJV";

const fx = useHttpServer(KEY, { sandbox: { crawlPageMs: 30 } });

const activeRequests = async () =>
  ((await (await fetch(new URL("/healthz", fx.http.url))).json()) as { active_requests: number })
    .active_requests;

describe("cancel over HTTP", () => {
  it("an aborted crawl_site call ends its work on the server, which polls the crawl no more", async () => {
    const { client, close } = await connect(fx.http.url);
    try {
      // A crawl of an hour: only the cancel can end the call's work within the test.
      fx.sandbox.configure({ crawlPageMs: 3_600_000 });
      const controller = new AbortController();
      const before = fx.sandbox.requests.length;
      const pending = client.callTool(
        { name: "crawl_site", arguments: { url: `${fx.sandbox.siteUrl}/`, limit: 3 } },
        undefined,
        { signal: controller.signal },
      );
      pending.catch(() => {});
      const polls = () => fx.sandbox.requests.slice(before).filter((q) => /^\/v[12]\/crawl\//.test(q.path));
      await until(polls, (p) => p.length >= 1);
      const crawlPath = polls()[0].path;
      controller.abort();
      await expect(pending).rejects.toThrow(/abort/i);
      await until(activeRequests, (n) => n === 0);

      await expectCancelledCrawlLeftAlone(fx.sandbox, crawlPath, (params) => client.callTool(params));
    } finally {
      await close();
    }
  });
});
