/**
 * `logging/setLevel` over Streamable HTTP: every request runs on a fresh (or pooled) server, so
 * the level lives in the session record and governs the log messages of the session's later
 * calls — and only of that session's.
 */
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { LoggingMessageNotificationSchema } from "@modelcontextprotocol/sdk/types.js";
import { describe, expect, it } from "vitest";
import { useHttpServer } from "../helpers/http-server.js";
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
});
