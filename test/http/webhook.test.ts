/**
 * Webhook completion: with a public URL, async submissions carry a callback URL of this server,
 * the sandbox POSTs to it when the task ends, and the verified delivery completes the wait.
 */
import { describe, expect, it } from "vitest";
import { CALLBACK_PATH, CALLBACK_SECRET_HEADER } from "../../src/server/http/callbacks.js";
import type { HttpServer } from "../../src/server/http.js";
import { useHttpServerOn } from "../helpers/http-server.js";
import { useSandbox } from "../helpers/sandbox.js";
import { connect, raw, textOf } from "./helpers.js";

const KEY = "wdk_hookQZXJVKWPRTMNHG";
const TOKEN = "tok_hookZr8pW2mQ9vX4nB";

const sandbox = useSandbox({ key: KEY, taskLatencyMs: 200, allowCallbacks: true });
const http = useHttpServerOn(sandbox, KEY, {
  server: { token: TOKEN, publicUrl: (port) => `http://127.0.0.1:${port}` },
});
const plain = useHttpServerOn(sandbox, KEY);

/** Records each wait on the server's completion source and how it ended. */
function recordWaits(server: HttpServer) {
  const completion = server.callbacks!.completion;
  const original = completion.wait;
  const seen: Array<{ id: string; outcome?: string }> = [];
  completion.wait = (id, signal) => {
    const entry: { id: string; outcome?: string } = { id };
    seen.push(entry);
    return original(id, signal).then(
      () => {
        entry.outcome = "called back";
      },
      (error) => {
        entry.outcome = "stopped";
        throw error;
      },
    );
  };
  return Object.assign(seen, {
    restore: () => {
      completion.wait = original;
    },
  });
}

const base = (server: HttpServer) => server.url.replace(/\/mcp$/, "");

describe("webhook completion", () => {
  it("completes an async extract on the sandbox's callback (no bearer token needed for it)", async () => {
    const c = await connect(http.url, { Authorization: `Bearer ${TOKEN}` });
    try {
      const before = http.callbacks!.deliveries;
      const waits = recordWaits(http);
      const result = await c.client.callTool({
        name: "extract_page",
        arguments: { url: `${sandbox.siteUrl}/`, render: true },
      });
      expect(result.isError, textOf(result)).toBeFalsy();
      expect(http.callbacks!.deliveries).toBe(before + 1);
      // The tool's wait raced the callback against polling, and the callback settled it.
      const submitted = sandbox.requests.filter((q) => q.path === "/v2/extract/async");
      expect(submitted.length).toBeGreaterThan(0);
      waits.restore();
      expect([...waits]).toEqual([{ id: expect.any(String), outcome: "called back" }]);
      expect(JSON.stringify(result)).not.toContain("secret=");
      expect(JSON.stringify(result)).not.toContain(CALLBACK_PATH);
    } finally {
      await c.close();
    }
  });

  it("completes a crawl on its end-event callback", async () => {
    const c = await connect(http.url, { Authorization: `Bearer ${TOKEN}` });
    try {
      const before = http.callbacks!.deliveries;
      const result = await c.client.callTool({
        name: "crawl_site",
        arguments: { url: `${sandbox.siteUrl}/`, limit: 3 },
      });
      expect(result.isError, textOf(result)).toBeFalsy();
      expect(http.callbacks!.deliveries).toBe(before + 1);
    } finally {
      await c.close();
    }
  });

  it("refuses a wrong secret with 403 and an unknown token with 404", async () => {
    const prepared = http.callbacks!.prepare({ header: true });
    const url = new URL(prepared.url);
    const wrong = await raw(`${base(http)}${url.pathname}`, {
      headers: { [CALLBACK_SECRET_HEADER]: "nope" },
      body: { task: { id: "t" } },
    });
    expect(wrong.status).toBe(403);
    const unknown = await raw(`${base(http)}${CALLBACK_PATH}${"x".repeat(24)}`, {
      headers: prepared.headers,
      body: {},
    });
    expect(unknown.status).toBe(404);
    const right = await raw(`${base(http)}${url.pathname}`, {
      headers: prepared.headers,
      body: { task: { id: "t" } },
    });
    expect(right.status).toBe(200);
    prepared.cancel();
  });

  it("still refuses a forged Host on the callback route", async () => {
    const prepared = http.callbacks!.prepare();
    const url = new URL(prepared.url);
    const res = await raw(`${base(http)}${url.pathname}${url.search}`, {
      headers: { host: "evil.example.com" },
      body: {},
    });
    expect(res.status).toBe(403);
    prepared.cancel();
  });

  it("has no callback route and adds no callback_url without a public URL", async () => {
    expect(plain.callbacks).toBeUndefined();
    const res = await raw(`${base(plain)}${CALLBACK_PATH}${"x".repeat(24)}?secret=x`, { body: {} });
    expect(res.status).toBe(404);
    const c = await connect(plain.url);
    try {
      const result = await c.client.callTool({
        name: "extract_page",
        arguments: { url: `${sandbox.siteUrl}/`, render: true },
      });
      expect(result.isError, textOf(result)).toBeFalsy();
    } finally {
      await c.close();
    }
  });
});
