/**
 * `logging/setLevel` over Streamable HTTP: every request runs on a fresh (or pooled) server, so
 * the level lives in the session record and governs the log messages of the session's later
 * calls — and only of that session's. A call's log lines go to its own session only, even from an
 * MCP task's work that outlives its request while the server serves another session's call.
 */
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import {
  CreateTaskResultSchema,
  GetTaskResultSchema,
  LoggingMessageNotificationSchema,
} from "@modelcontextprotocol/sdk/types.js";
import { describe, expect, it } from "vitest";
import { useHttpServer } from "../helpers/http-server.js";
import { until } from "../helpers/mcp.js";
import { connect, textOf } from "./helpers.js";

const KEY = "wdk_httpLOGkeyQZXJVKW";

const fx = useHttpServer(KEY);

/** Every level of the log messages `client` receives, in order. */
function levels(client: Client): string[] {
  const seen: string[] = [];
  client.setNotificationHandler(LoggingMessageNotificationSchema, (n) => {
    seen.push(n.params.level);
  });
  return seen;
}

/** The text of every log message `client` receives, in order. */
function lines(client: Client): string[] {
  const seen: string[] = [];
  client.setNotificationHandler(LoggingMessageNotificationSchema, (n) => {
    const data = n.params.data as { message?: string } | string;
    seen.push(typeof data === "string" ? data : String(data.message));
  });
  return seen;
}

describe("logging/setLevel over HTTP", () => {
  it("a level set in one request governs the log messages of the session's later calls", async () => {
    const a = await connect(fx.http.url);
    const b = await connect(fx.http.url);
    try {
      const seenA = levels(a.client);
      const seenB = levels(b.client);
      await a.client.setLoggingLevel("debug");
      const page = await a.client.callTool({
        name: "extract_page",
        arguments: { url: `${fx.sandbox.siteUrl}/` },
      });
      expect(page.isError, textOf(page)).toBeFalsy();
      // The call's stream carries its log lines before its answer.
      expect(seenA).toContain("debug");

      // Another session, possibly on the same pooled server, still gets the default (info).
      await b.client.callTool({ name: "extract_page", arguments: { url: `${fx.sandbox.siteUrl}/` } });
      expect(seenB).not.toContain("debug");

      await a.client.setLoggingLevel("error");
      const mark = seenA.length;
      const failed = await a.client.callTool({
        name: "get_task",
        arguments: { task_id: "00000000-0000-4000-8000-000000000000" },
      });
      expect(failed.isError).toBe(true);
      const page2 = await a.client.callTool({
        name: "extract_page",
        arguments: { url: `${fx.sandbox.siteUrl}/` },
      });
      expect(page2.isError, textOf(page2)).toBeFalsy();
      // "get_task failed" is an info line and extract_page's are debug: below error, so none came.
      expect(seenA.slice(mark)).toEqual([]);

      // Session B, at the default, gets that info line for the same failure.
      await b.client.callTool({
        name: "get_task",
        arguments: { task_id: "00000000-0000-4000-8000-000000000000" },
      });
      expect(seenB).toContain("info");
    } finally {
      await a.close();
      await b.close();
    }
  });

  it("a task's log lines never reach another session, whichever pooled server the other's call runs on", async () => {
    const a = await connect(fx.http.url);
    const b = await connect(fx.http.url);
    const seenB = lines(b.client);
    try {
      await a.client.setLoggingLevel("debug");
      await b.client.setLoggingLevel("debug");
      for (let round = 0; round < 3; round++) {
        const created = await a.client.request(
          {
            method: "tools/call",
            params: {
              name: "crawl_site",
              arguments: { url: `${fx.sandbox.siteUrl}/`, limit: 2 },
              task: { ttl: 120_000 },
            },
          },
          CreateTaskResultSchema,
        );
        // B's call runs on a server A's POST handed back, while A's task finishes (and logs).
        fx.sandbox.faults.add({ kind: "latency", ms: 3_000, match: "/serp", count: 1 });
        const serp = await b.client.callTool({
          name: "serp_search",
          arguments: { search_engine: "engine1_search", query: `round ${round}` },
        });
        await until(
          () =>
            a.client.request(
              { method: "tasks/get", params: { taskId: created.task.taskId } },
              GetTaskResultSchema,
            ),
          (task) => task.status !== "working",
        );
        expect(serp.isError, textOf(serp)).toBeFalsy();
      }
      expect(seenB.some((line) => line.includes("serp_search"))).toBe(true);
      expect(seenB.filter((line) => line.includes("crawl_site"))).toEqual([]);
    } finally {
      fx.sandbox.faults.clear();
      await a.close();
      await b.close();
    }
  });
});
