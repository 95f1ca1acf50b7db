/**
 * What a Redis reader sees (issue 23): key names carry no plain hash of an API key (the fleet-wide
 * rate limit's `wd:rl:*` is named by the keyed hash principals are made with), and a webhook
 * registration (`wd:cb:*`) holds neither its token nor its secret in clear.
 */
import { createHash } from "node:crypto";
import { Redis } from "ioredis";
import { expect, it } from "vitest";
import { useHttpServer } from "../helpers/http-server.js";
import { connect, textOf } from "./helpers.js";

const KEY = "wdk_saltQZXJVKWPRTMNH";
const sha256 = (s: string, encoding: "hex" | "base64url") => createHash("sha256").update(s).digest(encoding);

const fx = useHttpServer(KEY, {
  sandbox: { taskLatencyMs: 100 },
  redis: true,
  server: { publicUrl: (port) => `http://127.0.0.1:${port}` },
});

it("names no key by a plain hash of the API key and keeps no webhook token or secret in clear", async () => {
  const { sandbox, http } = fx;
  const redis = new Redis(fx.redis.url);
  try {
    const connected = await connect(http.url, { "x-webdata-api-key": KEY });
    for (const [name, args] of [
      ["extract_page", { url: `${sandbox.siteUrl}/`, render: true }],
      ["crawl_site", { url: `${sandbox.siteUrl}/`, limit: 2 }],
    ] as const) {
      const result = await connected.client.callTool({ name, arguments: args });
      expect(result.isError, textOf(result)).toBeFalsy();
    }
    const names = await redis.keys("wd:*");
    await connected.close();
    const plain = [
      sha256(KEY, "hex"),
      sha256(KEY, "base64url"),
      sha256(`${sha256(KEY, "hex")} ${new URL(sandbox.url).origin}`, "base64url"),
    ];
    expect(names.filter((n) => plain.some((p) => n.includes(p)))).toEqual([]);
    expect(names.some((n) => n.startsWith("wd:rl:"))).toBe(true);

    const callbacks = sandbox.callbacks.map((cb) => new URL(cb.url));
    expect(callbacks.length).toBe(2);
    const tokens = callbacks.map((u) => u.pathname.split("/").pop() ?? "");
    const secrets = callbacks.map((u) => u.searchParams.get("secret")).filter((s) => s !== null);
    const registrations = names.filter((n) => n.startsWith("wd:cb:"));
    expect(registrations.length).toBe(2);
    const stored = JSON.stringify([registrations, await redis.mget(...registrations)]);
    for (const clear of [...tokens, ...secrets]) expect(stored).not.toContain(clear);
  } finally {
    redis.disconnect();
  }
});
