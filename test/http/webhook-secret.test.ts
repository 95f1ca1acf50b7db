/**
 * The webhook secret (issue 23): it travels in a header (the crawl callback's `headers`, the only
 * callback the API lets us give headers), never in a callback URL, and a fleet's shared store
 * holds only keyed hashes of the token and the secret, never either in clear.
 */
import { describe, expect, it } from "vitest";
import { credentialHasher } from "../../src/server/http/auth/principal.js";
import {
  CALLBACK_PATH,
  CALLBACK_SECRET_HEADER,
  CallbackRegistry,
  type CallbackShare,
} from "../../src/server/http/callbacks.js";
import { useHttpServer } from "../helpers/http-server.js";
import { connect, raw, textOf } from "./helpers.js";

const KEY = "wdk_secretQZXJVKWPRTM";

/** A share that keeps what it is given, as Redis would. */
function memoryShare() {
  const saved = new Map<string, unknown>();
  const share: CallbackShare = {
    save: (name, registration) => void saved.set(name, registration),
    load: async (name) => saved.get(name) as never,
    publish: () => {},
  };
  return { share, saved };
}

describe("callback registrations", () => {
  it("put the secret in a header, not the URL, and share only hashes of token and secret", async () => {
    const { share, saved } = memoryShare();
    const hash = credentialHasher("callback-test-salt");
    const registry = new CallbackRegistry({ publicUrl: "https://mcp.example.com", share, hash });
    const prepared = registry.prepare({ header: true });
    const secret = prepared.headers[CALLBACK_SECRET_HEADER];
    expect(secret).toMatch(/^[A-Za-z0-9_-]{24,}$/);
    expect(prepared.url).not.toContain(secret);
    expect(new URL(prepared.url).search).toBe("");
    const token = new URL(prepared.url).pathname.slice(CALLBACK_PATH.length);
    prepared.bind("task-1");
    const stored = JSON.stringify([...saved]);
    expect(stored).not.toContain(secret);
    expect(stored).not.toContain(token);

    // Another replica (same share and salt) verifies a delivery from the shared hashes alone.
    const other = new CallbackRegistry({ publicUrl: "https://mcp.example.com", share, hash });
    expect((await other.deliver(token, undefined, { task: { id: "task-1" } })).status).toBe(403);
    expect((await other.deliver(token, `${secret}x`, { task: { id: "task-1" } })).status).toBe(403);
    expect((await other.deliver(token, secret, { task: { id: "task-1" } })).status).toBe(200);
  });
});

describe("over HTTP", () => {
  const fx = useHttpServer(KEY, {
    sandbox: { taskLatencyMs: 100, crawlPageMs: 20, allowCallbacks: true },
    server: { publicUrl: (port) => `http://127.0.0.1:${port}` },
  });

  it("never hands the API a callback URL with a secret in it", async () => {
    const c = await connect(fx.http.url);
    try {
      const before = fx.http.callbacks!.deliveries;
      for (const [name, args] of [
        ["extract_page", { url: `${fx.sandbox.siteUrl}/`, render: true }],
        ["crawl_site", { url: `${fx.sandbox.siteUrl}/`, limit: 2 }],
      ] as const) {
        const result = await c.client.callTool({ name, arguments: args });
        expect(result.isError, textOf(result)).toBeFalsy();
      }
      expect(fx.http.callbacks!.deliveries).toBe(before + 2);
      const urls = fx.sandbox.callbacks.map((cb) => cb.url);
      expect(urls.length).toBeGreaterThanOrEqual(2);
      for (const url of urls) expect(url).not.toMatch(/secret/i);
    } finally {
      await c.close();
    }
  });

  it("refuses a crawl callback without the secret header (403), accepts it with it", async () => {
    const prepared = fx.http.callbacks!.prepare({ header: true });
    const path = new URL(prepared.url).pathname;
    const base = fx.http.url.replace(/\/mcp$/, "");
    expect((await raw(`${base}${path}`, { body: { task: { id: "t" } } })).status).toBe(403);
    const right = await raw(`${base}${path}`, { headers: prepared.headers, body: { task: { id: "t" } } });
    expect(right.status).toBe(200);
    prepared.cancel();
  });
});
