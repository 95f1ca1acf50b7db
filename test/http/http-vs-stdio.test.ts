/**
 * Issue 29 part 5: every tool works the same over HTTP with ownership as over stdio. Each
 * registry example (all toolsets) runs on the built CLI over stdio, and over HTTP with OAuth
 * (oidc-provider's signing key, as a real deployment's tokens) and the Redis stores, as two
 * different users under the server's one API key: the same success and the same shape
 * (`isError`, `structuredContent`'s keys). A submission not claimed for its caller (the SERP batch
 * before issue 30) fails here, as its own user's poll is refused. The few rows that differ by
 * design are listed with their reason.
 */
import { describe, expect, it } from "vitest";
import type { Sandbox } from "../../src/sandbox/index.js";
import { ALL_TOOLS } from "../../src/tools/registry.js";
import { useHttpServerOn } from "../helpers/http-server.js";
import { call, type StdioServer, spawnAgainst, textOf } from "../helpers/mcp.js";
import { useStarted } from "../helpers/read-through.js";
import { useRedis } from "../helpers/redis.js";
import { useSandbox } from "../helpers/sandbox.js";
import { startProvider } from "../oauth/provider.js";
import { type Connected, connect } from "./helpers.js";

const KEY = "wdk_httpstdioQZXJVKWHB";
const env = (sandbox: Sandbox) => ({
  WEBDATA_TOOLSETS: "all",
  WEBDATA_LEGACY_AUTH: "demo:demo",
  WEBDATA_LEGACY_BASE_URL: sandbox.legacyUrl,
});
const FAST = { taskLatencyMs: 20, crawlPageMs: 10 };

/**
 * Examples that name an account object made outside this server and change it: under the shared
 * key no user may (docs/http-and-fleet.md, "Whose work is whose"), so over HTTP they are refused
 * as not found while stdio (the key's own account) does them.
 */
const CHANGES_OUTSIDE: Record<string, string> = {
  "manage_template#1": "updates the account's template ecommerce_product, made outside this server",
  "cancel#1": "cancels a crawl id no user of this server started",
  "get_task#1": "reads a task id no user of this server started (a task is its maker's alone)",
};
/**
 * Not compared: a listing's total counts everyone's work, so over HTTP under the shared key it is
 * left out; whether a next page exists depends on how much work the listing's owner holds.
 */
const HIDDEN_KEYS = new Set(["total", "next_cursor", "next_offset"]);

const stdioSandbox = useSandbox(FAST);
const httpSandbox = useSandbox({ ...FAST, key: KEY });
const stdio = useStarted(
  "the stdio server",
  (): Promise<StdioServer> => spawnAgainst(stdioSandbox, env(stdioSandbox)),
  (s) => s.close(),
);
const provider = useStarted(
  "the OpenID provider",
  () => startProvider(),
  (p) => p.close(),
);
const redis = useRedis();
const http = useHttpServerOn(httpSandbox, KEY, () => ({
  env: env(httpSandbox),
  server: {
    redisUrl: redis.url,
    publicUrl: (port) => `http://127.0.0.1:${port}`,
    oauth: { issuer: provider.issuer, scopes: ["mcp:tools"] },
  },
}));

/** A user's HTTP session with an access token the provider signed for this server. */
async function userSession(sub: string): Promise<Connected> {
  const now = Math.floor(Date.now() / 1000);
  const token = await provider.sign({
    aud: http.url,
    scope: "mcp:tools",
    sub,
    client_id: `app-${sub}`,
    iat: now,
    exp: now + 3600,
  });
  return connect(http.url, { authorization: `Bearer ${token}` });
}

interface Outcome {
  isError: boolean;
  keys: string[];
  text: string;
}
const outcome = (answer: unknown): Outcome => {
  const r = answer as { isError?: boolean; structuredContent?: unknown };
  return {
    isError: r.isError === true,
    keys: Object.keys((r.structuredContent as object | undefined) ?? {})
      .filter((k) => !HIDDEN_KEYS.has(k))
      .sort(),
    text: textOf(r as never).slice(0, 300),
  };
};

const cases = ALL_TOOLS.flatMap((tool) =>
  (tool.examples ?? []).map((args, i) => ({ id: `${tool.name}#${i + 1}`, tool: tool.name, args })),
);

/** What differs between stdio and each HTTP user, beyond the rows that differ by design. */
function compare(id: string, overStdio: Outcome, overHttp: Outcome[]): string[] {
  const rows: string[] = [];
  const reason = CHANGES_OUTSIDE[id];
  for (const [who, got] of overHttp.entries()) {
    const user = who === 0 ? "alice" : "bob";
    if (reason) {
      if (!got.isError || !/of yours/.test(got.text))
        rows.push(`${id} (${user}): expected refused (${reason}), got ${got.text}`);
      continue;
    }
    if (got.isError !== overStdio.isError)
      rows.push(
        `${id} (${user}): isError ${got.isError} over HTTP, ${overStdio.isError} over stdio: ${got.text}`,
      );
    else if (got.keys.join() !== overStdio.keys.join())
      rows.push(`${id} (${user}): keys ${got.keys} over HTTP, ${overStdio.keys} over stdio`);
  }
  if (!reason && overStdio.isError) rows.push(`${id}: fails over stdio: ${overStdio.text}`);
  return rows;
}

describe("every registry example: stdio and HTTP (OAuth, Redis, two users) alike", () => {
  it("answers the same success and shape on both transports, for each user", async () => {
    const alice = await userSession("alice");
    const bob = await userSession("bob");
    try {
      // The examples run side by side (each on the three sessions at once): none depends on another.
      const rows = (
        await Promise.all(
          cases.map(async (c) => {
            const [overStdio, ...overHttp] = (
              await Promise.all([
                call(stdio, c.tool, { ...c.args }),
                alice.client.callTool({ name: c.tool, arguments: { ...c.args } }),
                bob.client.callTool({ name: c.tool, arguments: { ...c.args } }),
              ])
            ).map(outcome) as [Outcome, Outcome, Outcome];
            return compare(c.id, overStdio, overHttp);
          }),
        )
      ).flat();
      expect(rows).toEqual([]);
    } finally {
      await alice.close();
      await bob.close();
    }
  }, 60_000);
});
