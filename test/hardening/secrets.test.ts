/**
 * Secret hygiene across every error path: the API key, the legacy credential, a per-session key
 * and the HTTP access token never appear (no run of more than 4 of their characters) in a tool
 * result, an error, a log line on stderr, an MCP log message at debug level, the one-shot CLI's
 * output, or the agent catalog's cache directory.
 */
import { LoggingMessageNotificationSchema } from "@modelcontextprotocol/sdk/types.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Fault } from "../../src/sandbox/index.js";
import { closedPort } from "../helpers/fake-upstream.js";
import { runCli, spawnServer, until } from "../helpers/mcp.js";
import { type HttpChild, spawnHttpServer } from "../http/child.js";
import { connect } from "../http/helpers.js";
import {
  crashLines,
  errorCodeOf,
  filesUnder,
  type Hardened,
  type HardenedSandbox,
  harden,
  hardenedSandbox,
  randomSecret,
  secretLeaks,
  textOf,
} from "./harness.js";

const WAIT_MS = 1200;

/** Every way a call can fail upstream, as a fault (plus the args that reach it). */
const ERROR_PATHS: Array<{ name: string; fault?: Fault; tool?: string; args?: (h: Hardened) => object }> = [
  { name: "401 unauthorized", fault: { kind: "status", status: 401 } },
  { name: "402 payment required", fault: { kind: "status", status: 402 } },
  { name: "400 bad request", fault: { kind: "status", status: 400 } },
  { name: "404 not found", fault: { kind: "status", status: 404 } },
  { name: "422 validation", fault: { kind: "status", status: 422 } },
  { name: "429 after retries", fault: { kind: "rate_limit", retryAfter: 0 } },
  { name: "500 on a read", fault: { kind: "status", status: 500 }, tool: "check_domain_health" },
  { name: "503 on a submission", fault: { kind: "status", status: 503 } },
  { name: "a reset", fault: { kind: "reset" } },
  { name: "a malformed body", fault: { kind: "malformed" } },
  { name: "a failed task", fault: { kind: "task_error" }, tool: "map_site" },
  { name: "a failed crawl", fault: { kind: "crawl_fail" }, tool: "crawl_site" },
  { name: "the deadline", fault: { kind: "latency", ms: 3000, match: "GET /" }, tool: "crawl_site" },
  { name: "a legacy 401", fault: { kind: "status", status: 401 }, tool: "get_social_event" },
  { name: "a bad argument", tool: "extract_page", args: () => ({ url: "not a url" }) },
  { name: "a bad argument combination", tool: "get_task", args: () => ({ task_id: "a", crawl_id: "b" }) },
  { name: "an unknown task", tool: "get_task", args: () => ({ task_id: "0000" }) },
  { name: "an unknown agent", tool: "run_agent", args: () => ({ agent: "no_such_agent" }) },
];

const ARGS: Record<string, (h: Hardened) => object> = {
  serp_search: () => ({ search_engine: "engine1_search", query: "hiking boots" }),
  check_domain_health: () => ({ domains: ["example.com"] }),
  map_site: (h) => ({ url: `${h.sandbox.siteUrl}/` }),
  crawl_site: (h) => ({ url: `${h.sandbox.siteUrl}/`, limit: 2 }),
  get_social_event: () => ({ platform: "meetup", event_id: "e1" }),
};

function expectNoSecrets(text: string, secrets: string[]) {
  for (const secret of secrets) expect(secretLeaks(text, secret), "a secret leaked").toEqual([]);
}

describe("secrets over stdio, on every error path", () => {
  let h: Hardened;
  beforeAll(async () => {
    h = await harden({ waitMs: WAIT_MS, sandbox: { taskLatencyMs: 30 } });
  }, 60_000);
  afterAll(async () => {
    await h?.close();
  });

  it.each(ERROR_PATHS)("$name: the call fails with an error and no secret", async (path) => {
    const tool = path.tool ?? "serp_search";
    if (path.fault) h.sandbox.faults.add(path.fault);
    try {
      const r = await h.call(tool, (path.args ?? ARGS[tool])(h));
      const pending = r.structuredContent?.status === "pending";
      expect(r.isError || pending, JSON.stringify(r).slice(0, 300)).toBe(true);
      if (r.isError) expect(textOf(r).length).toBeGreaterThan(0);
    } finally {
      h.sandbox.faults.clear();
    }
    expectNoSecrets(h.captured(), [h.key, h.legacyAuth]);
  });

  it("a cancelled call leaves no secret behind", async () => {
    // One request held for long by the API: the fault is used up once the call has reached it.
    h.sandbox.faults.add({ kind: "latency", ms: 60_000, count: 1 });
    const controller = new AbortController();
    const call = h.server.client.callTool(
      { name: "serp_search", arguments: ARGS.serp_search(h) as Record<string, unknown> },
      undefined,
      { signal: controller.signal },
    );
    await until(
      () => h.sandbox.faults.list().length,
      (n) => n === 0,
    );
    controller.abort();
    await expect(call).rejects.toThrow();
    h.sandbox.faults.clear();
    await h.server.client.ping();
    expectNoSecrets(h.captured(), [h.key, h.legacyAuth]);
  });

  it("everything captured, the debug log and the catalog cache hold no secret, and nothing crashed", () => {
    const all = h.captured();
    expect(all).toContain('"level":"debug"'); // the debug level was really on
    expectNoSecrets(all, [h.key, h.legacyAuth]);
    // The agent catalog cache (when the server wrote one): neither names nor contents.
    expectNoSecrets(filesUnder(h.cacheDir), [h.key, h.legacyAuth]);
    expect(crashLines(h.server.stderr())).toEqual([]);
  });
});

describe("secrets when the key itself is wrong, the API unreachable or the config bad", () => {
  it("a rejected key is not echoed in the 401 error", async () => {
    // The hardened sandbox (its own key) and a server of the test's with another key.
    const h = await hardenedSandbox();
    try {
      const wrong = randomSecret("wk_");
      const server = await spawnServer({
        env: { WEBDATA_BASE_URL: h.sandbox.url, WEBDATA_API_KEY: wrong, WEBDATA_WAIT_MS: String(WAIT_MS) },
      });
      try {
        const r = (await server.client.callTool({
          name: "serp_search",
          arguments: { search_engine: "engine1_search", query: "x" },
        })) as never;
        expect(errorCodeOf(r)).toBe("unauthorized");
        expect(textOf(r)).toMatch(/WEBDATA_API_KEY/);
        expectNoSecrets(`${JSON.stringify(r)}\n${server.stderr()}`, [wrong]);
      } finally {
        await server.close();
      }
    } finally {
      await h.close();
    }
  });

  it("an unreachable API gives a network error without the key", async () => {
    const port = await closedPort();
    const key = randomSecret("nk_");
    const server = await spawnServer({
      env: { WEBDATA_BASE_URL: `http://127.0.0.1:${port}`, WEBDATA_API_KEY: key, WEBDATA_WAIT_MS: "3000" },
    });
    try {
      const r = (await server.client.callTool({
        name: "check_domain_health",
        arguments: { domains: ["example.com"] },
      })) as never;
      expect(errorCodeOf(r)).toBe("network_error");
      expectNoSecrets(`${JSON.stringify(r)}\n${server.stderr()}`, [key]);
    } finally {
      await server.close();
    }
  });

  it("a bad configuration and a failing one-shot call print no key", async () => {
    const key = randomSecret("ck_");
    const bad = await runCli([], { WEBDATA_API_KEY: key, WEBDATA_BASE_URL: `not-a-url-${key}` });
    expect(bad.status).not.toBe(0);
    const port = await closedPort();
    const oneShot = await runCli(["call", "serp_search", '{"search_engine":"engine1_search","query":"x"}'], {
      WEBDATA_API_KEY: key,
      WEBDATA_BASE_URL: `http://127.0.0.1:${port}`,
    });
    expect(oneShot.status).toBe(1);
    expectNoSecrets([bad.stdout, bad.stderr, oneShot.stdout, oneShot.stderr].join("\n"), [key]);
  });
});

describe("secrets over Streamable HTTP", () => {
  // The hardened sandbox, its key and cache dir for the HTTP server child (no stdio server).
  let h: HardenedSandbox;
  let server: HttpChild;
  let url: string;
  const token = randomSecret("tk_");
  const sessionKey = randomSecret("sk_");

  beforeAll(async () => {
    h = await hardenedSandbox();
    server = await spawnHttpServer(
      [],
      {
        WEBDATA_BASE_URL: h.sandbox.url,
        WEBDATA_API_KEY: h.key,
        WEBDATA_HTTP_TOKEN: token,
        WEBDATA_WAIT_MS: String(WAIT_MS),
        WEBDATA_LOG_LEVEL: "debug",
        WEBDATA_HTTP_DRAIN_MS: "1000",
        WEBDATA_CACHE_DIR: h.cacheDir,
      },
      { sandbox: false },
    );
    url = server.url;
  }, 60_000);

  afterAll(async () => {
    await server?.kill();
    await h?.close();
  });

  /** The shared HTTP client, with the server's MCP log messages at debug level collected. */
  async function connectLogged(headers: Record<string, string>) {
    const session = await connect(url, headers);
    const logs: string[] = [];
    session.client.setNotificationHandler(LoggingMessageNotificationSchema, (n) => {
      logs.push(JSON.stringify(n.params));
    });
    await session.client.setLoggingLevel("debug");
    return { ...session, logs };
  }

  it("a wrong or missing token is refused without echoing any token", async () => {
    const wrong = randomSecret("xk_");
    const attempts: Record<string, string>[] = [{ authorization: `Bearer ${wrong}` }, {}];
    for (const headers of attempts) {
      const res = await fetch(url, {
        method: "POST",
        headers: {
          "content-type": "application/json",
          accept: "application/json, text/event-stream",
          ...headers,
        },
        body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "ping" }),
      });
      expect(res.status).toBe(401);
      const body = `${JSON.stringify([...res.headers])}\n${await res.text()}`;
      expectNoSecrets(body, [token, wrong, h.key]);
    }
  });

  it("error paths with the server's key and with a per-session key leak neither, nor the token", async () => {
    const outputs: string[] = [];
    const sessions: Record<string, string>[] = [
      { authorization: `Bearer ${token}` },
      { authorization: `Bearer ${token}`, "x-webdata-api-key": sessionKey },
    ];
    for (const headers of sessions) {
      const c = await connectLogged(headers);
      try {
        for (const fault of [
          { kind: "status", status: 401 },
          { kind: "status", status: 422 },
          { kind: "malformed" },
          { kind: "reset" },
          undefined,
        ] as Array<Fault | undefined>) {
          if (fault) h.sandbox.faults.add(fault);
          const r = await c.client.callTool({
            name: "serp_search",
            arguments: { search_engine: "engine1_search", query: "hiking" },
          });
          h.sandbox.faults.clear();
          outputs.push(JSON.stringify(r));
        }
        const bad = await c.client.callTool({ name: "extract_page", arguments: { url: 7 } });
        expect(bad.isError).toBe(true);
        outputs.push(JSON.stringify(bad), ...c.logs);
      } finally {
        await c.close();
      }
    }
    const all = [...outputs, server.stderr()].join("\n");
    expect(all).toMatch(/Error \[/); // the error paths were really taken
    expectNoSecrets(all, [token, sessionKey, h.key]);
    expect(crashLines(server.stderr())).toEqual([]);
  });
});
