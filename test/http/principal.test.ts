/**
 * Issue 23 items 1–2: every request is one principal, and the work a principal starts through the
 * server under the deployment's shared key is its own. Two OAuth-like users (an authenticator
 * that yields issuer + subject, as the resource server does) share the server's one API key:
 * neither reads nor lists the other's tasks, and another principal's id answers exactly like an
 * id that never existed. A token without `sub` is refused.
 */
import type { AuthInfo } from "@modelcontextprotocol/sdk/server/auth/types.js";
import {
  CallToolResultSchema,
  CreateTaskResultSchema,
  GetTaskResultSchema,
} from "@modelcontextprotocol/sdk/types.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Principal } from "../../src/principal.js";
import {
  type Authenticator,
  oauthIdentity,
  staticTokenAuthenticator,
} from "../../src/server/http/auth/authenticate.js";
import { credentialHasher, principalOf } from "../../src/server/http/auth/principal.js";
import { useHttpServer } from "../helpers/http-server.js";
import { type Connected, connect, INITIALIZE, raw, textOf } from "./helpers.js";

const KEY = "wdk_principalQZXJVKW";
/** The label the static token once carried as its client id (an OAuth token may name itself so). */
const STATIC_TOKEN_SUBJECT = "webdata-http-token";
const ISSUER = "https://issuer.test";
const USERS: Record<string, AuthInfo> = {
  alice: { token: "alice", clientId: "app", scopes: [], extra: { iss: ISSUER, sub: "alice" } },
  bob: { token: "bob", clientId: "app", scopes: [], extra: { iss: ISSUER, sub: "bob" } },
  nosub: { token: "nosub", clientId: "app", scopes: [], extra: { iss: ISSUER } },
};
const authenticate: Authenticator = (request) => {
  const token = request.headers.get("authorization")?.replace(/^Bearer /, "") ?? "";
  const auth = USERS[token];
  return auth
    ? { ok: true, identity: oauthIdentity(auth) }
    : { ok: false, status: 401, message: "Unauthorized" };
};

const fx = useHttpServer(KEY, { sandbox: { taskLatencyMs: 50 }, server: { authenticate } });
let alice: Connected;
let bob: Connected;

beforeAll(async () => {
  alice = await connect(fx.http.url, { authorization: "Bearer alice" });
  bob = await connect(fx.http.url, { authorization: "Bearer bob" });
});

afterAll(async () => {
  await alice?.close();
  await bob?.close();
});

const call = (who: Connected, name: string, args: Record<string, unknown>) =>
  who.client.callTool({ name, arguments: args }, CallToolResultSchema);

/** A task alice started (an async extract the call waited for). */
async function aliceTask(): Promise<string> {
  const page = await call(alice, "extract_page", { url: `${fx.sandbox.siteUrl}/`, max_chars: 200 });
  expect(page.isError, textOf(page)).toBeFalsy();
  const id = (page.structuredContent as { task_id?: string }).task_id;
  expect(id).toMatch(/\S/);
  return id!;
}

const masked = (text: string, id: string) => text.replaceAll(id, "<id>");

describe("ownership under the shared key", () => {
  it("answers another principal's task id exactly like an unknown one", async () => {
    const id = await aliceTask();
    const own = await call(alice, "get_task", { task_id: id });
    expect(own.isError, textOf(own)).toBeFalsy();

    const stolen = await call(bob, "get_task", { task_id: id });
    expect(stolen.isError).toBe(true);
    const unknownId = "00000000-0000-4000-a000-0000000000ff";
    const unknown = await call(bob, "get_task", { task_id: unknownId });
    expect(unknown.isError).toBe(true);
    expect(masked(textOf(stolen), id)).toBe(masked(textOf(unknown), unknownId));
    expect(JSON.stringify(stolen)).not.toContain(fx.sandbox.siteUrl);
  });

  it("lists only the principal's own tasks", async () => {
    const id = await aliceTask();
    const mine = await call(alice, "get_task", { limit: 100 });
    const theirs = await call(bob, "get_task", { limit: 100 });
    const ids = (r: typeof mine) =>
      ((r.structuredContent as { tasks?: Array<{ task_id: string }> }).tasks ?? []).map((t) => t.task_id);
    expect(ids(mine)).toContain(id);
    expect(ids(theirs)).not.toContain(id);
    expect(ids(theirs)).toEqual([]);
  });

  it("does not let another principal read a batch or its pages", async () => {
    const batch = await call(alice, "extract_batch", { inputs: [{ url: `${fx.sandbox.siteUrl}/` }] });
    expect(batch.isError, textOf(batch)).toBeFalsy();
    const batchId = (batch.structuredContent as { batch_id: string }).batch_id;
    expect((await call(bob, "get_task", { batch_id: batchId })).isError).toBe(true);
    const own = await call(alice, "get_task", { batch_id: batchId });
    expect(own.isError, textOf(own)).toBeFalsy();
  });
});

describe("crawls and MCP tasks under the shared key", () => {
  it("lists only the principal's own crawls, and only the owner cancels one", async () => {
    const crawl = await call(alice, "crawl_site", {
      url: `${fx.sandbox.siteUrl}/`,
      limit: 2,
      max_chars: 200,
    });
    expect(crawl.isError, textOf(crawl)).toBeFalsy();
    const crawlId = (crawl.structuredContent as { crawl_id: string }).crawl_id;
    const ids = (r: typeof crawl) =>
      ((r.structuredContent as { crawls?: Array<{ crawl_id: string }> }).crawls ?? []).map((c) => c.crawl_id);
    expect(ids(await call(alice, "get_task", { list: "crawls" }))).toContain(crawlId);
    expect(ids(await call(bob, "get_task", { list: "crawls" }))).toEqual([]);

    const from = fx.sandbox.requests.length;
    const stolen = await call(bob, "cancel", { crawl_id: crawlId });
    expect(stolen.isError).toBe(true);
    expect(textOf(stolen)).toContain("404");
    expect(fx.sandbox.requests.slice(from).filter((q) => q.method === "DELETE")).toEqual([]);
    const own = await call(alice, "cancel", { crawl_id: crawlId });
    expect(own.isError, textOf(own)).toBeFalsy();
  });

  it("cancels an MCP task by its task id for its owner only", async () => {
    fx.sandbox.configure({ taskLatencyMs: 120_000 });
    try {
      const created = await alice.client.request(
        {
          method: "tools/call",
          params: {
            name: "extract_page",
            arguments: { url: `${fx.sandbox.siteUrl}/`, render: true },
            task: { ttl: 600_000 },
          },
        },
        CreateTaskResultSchema,
      );
      const taskId = created.task.taskId;
      const stolen = await call(bob, "cancel", { task_id: taskId });
      expect(stolen.isError).toBe(true);
      expect(textOf(stolen)).toContain(`No MCP task ${taskId} of yours`);
      const status = async () =>
        (await alice.client.request({ method: "tasks/get", params: { taskId } }, GetTaskResultSchema)).status;
      expect(await status()).toBe("working");
      const own = await call(alice, "cancel", { task_id: taskId });
      expect(own.isError, textOf(own)).toBeFalsy();
      expect(own.structuredContent).toEqual({ kind: "task", id: taskId, status: "cancelled" });
      expect(await status()).toBe("cancelled");
    } finally {
      fx.sandbox.configure({ taskLatencyMs: 50 });
    }
  });
});

describe("the principal", () => {
  it("refuses a token that names no subject", async () => {
    const res = await raw(fx.http.url, { headers: { authorization: "Bearer nosub" }, body: INITIALIZE });
    expect(res.status).toBe(401);
    expect(res.body).toMatch(/sub/);
  });

  it("binds a session to its principal: another user's session id is not found", async () => {
    const res = await raw(fx.http.url, {
      headers: {
        authorization: "Bearer bob",
        "mcp-session-id": alice.transport.sessionId!,
        "mcp-protocol-version": "2025-06-18",
      },
      body: { jsonrpc: "2.0", id: 5, method: "ping" },
    });
    expect(res.status).toBe(404);
  });
});

describe("static token and OAuth principals are disjoint", () => {
  const hash = credentialHasher("salt");
  const request = (token: string) =>
    new Request("http://127.0.0.1/mcp", { headers: { authorization: `Bearer ${token}` } });

  it("never takes an OAuth token whose sub and client id read like the static token's for it", async () => {
    // What the resource server makes of a JWT with sub = client_id = the static token's label.
    const lookalike: AuthInfo = {
      token: "eyJ.lookalike.jwt",
      clientId: STATIC_TOKEN_SUBJECT,
      scopes: [],
      extra: { iss: ISSUER, sub: STATIC_TOKEN_SUBJECT },
    };
    const oauth = principalOf(oauthIdentity(lookalike), undefined, hash) as Principal;
    expect(oauth).toBeInstanceOf(Principal);
    expect(oauth.kind).toBe("oauth");
    // The same user with another token of theirs is the same principal (not a hash of the token).
    const again = principalOf(
      oauthIdentity({ ...lookalike, token: "eyJ.other.jwt" }),
      undefined,
      hash,
    ) as Principal;
    expect(again.id).toBe(oauth.id);

    const outcome = await staticTokenAuthenticator("s3cret-token")(request("s3cret-token"));
    expect(outcome.ok).toBe(true);
    const stat = principalOf(
      outcome.ok ? (outcome.identity ?? undefined) : undefined,
      undefined,
      hash,
    ) as Principal;
    expect(stat.kind).toBe("token");
    expect(stat.id).not.toBe(oauth.id);
  });
});
