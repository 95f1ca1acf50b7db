/**
 * Issue 22 §3 over HTTP: a `webdata://` link belongs to the principal whose call returned it.
 * Two principals share the server's one API key; the other one's `resources/read` of a link
 * answers exactly like a URI that names nothing, and the owner reads it on any page.
 */
import { CallToolResultSchema } from "@modelcontextprotocol/sdk/types.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Authenticator, Identity } from "../../src/server/http/auth/authenticate.js";
import { useHttpServer } from "../helpers/http-server.js";
import { type Connected, connect, textOf } from "./helpers.js";

const KEY = "wdk_resourcesQZXJVKW";
const ISSUER = "https://issuer.test";
const USERS: Record<string, Identity> = {
  alice: { kind: "oauth", issuer: ISSUER, subject: "alice" },
  bob: { kind: "oauth", issuer: ISSUER, subject: "bob" },
};
const authenticate: Authenticator = (request) => {
  const token = request.headers.get("authorization")?.replace(/^Bearer /, "") ?? "";
  const auth = USERS[token];
  return auth ? { ok: true, identity: auth } : { ok: false, status: 401, message: "Unauthorized" };
};

const fx = useHttpServer(KEY, {
  sandbox: { taskLatencyMs: 50, crawlPageMs: 20 },
  server: { authenticate },
  env: { WEBDATA_TOOLSETS: "all" },
});
let alice: Connected;
let bob: Connected;
const clients: Connected[] = [];

beforeAll(async () => {
  for (const token of ["alice", "bob"])
    clients.push(await connect(fx.http.url, { authorization: `Bearer ${token}` }));
  [alice, bob] = clients as [Connected, Connected];
});

afterAll(() => Promise.all(clients.map((c) => c.close())));

const links = async (who: Connected, name: string, args: Record<string, unknown>) => {
  const r = await who.client.callTool({ name, arguments: args }, CallToolResultSchema);
  expect(r.isError, textOf(r)).toBeFalsy();
  return CallToolResultSchema.parse(r).content.flatMap((c) => (c.type === "resource_link" ? [c.uri] : []));
};

/** The error a read answers with, its URI masked. */
async function refusal(who: Connected, uri: string): Promise<{ code: unknown; message: string }> {
  const error = await who.client.readResource({ uri }).then(
    () => undefined,
    (e: { code?: unknown; message?: string }) => e,
  );
  expect(error, `${uri} was read`).toBeDefined();
  return { code: error?.code, message: String(error?.message).replaceAll(uri, "<uri>") };
}

describe("webdata:// links per principal", () => {
  it("another principal's crawl page reads like an unknown one; the owner reads it", async () => {
    const [uri] = await links(alice, "crawl_site", { url: `${fx.sandbox.siteUrl}/`, limit: 3 });
    expect(uri).toMatch(/^webdata:\/\/task\//);
    const own = await alice.client.readResource({ uri: `${uri}?max_chars=200` });
    expect(own.contents[0]).toMatchObject({ uri: `${uri}?max_chars=200`, mimeType: "text/markdown" });

    const stolen = await refusal(bob, uri!);
    const unknown = await refusal(bob, "webdata://task/00000000-0000-4000-a000-0000000000ff");
    expect(stolen).toEqual(unknown);
    expect(stolen).toEqual({ code: -32002, message: "MCP error -32002: Resource not found: <uri>" });
    expect(await refusal(bob, `${uri}?offset=200`)).toEqual(unknown);
  });

  it("a job run's artifact link is its caller's only", async () => {
    const list = await alice.client.callTool({ name: "job_runs", arguments: { job_id: "job_daily_prices" } });
    const run = (
      list.structuredContent as { runs: Array<{ id: string; artifact_ids?: string[] }> }
    ).runs.find((r) => r.artifact_ids?.length);
    const [uri] = await links(alice, "job_runs", { run_id: run!.id });
    const own = await alice.client.readResource({ uri: uri! });
    expect(own.contents[0]).toMatchObject({ mimeType: "application/jsonl" });
    expect(await refusal(bob, uri!)).toEqual({
      code: -32002,
      message: "MCP error -32002: Resource not found: <uri>",
    });
    // Once bob's own call returns the same link, it is his too.
    await links(bob, "job_runs", { run_id: run!.id });
    expect((await bob.client.readResource({ uri: uri! })).contents).toHaveLength(1);
  });

  it("resources/list shows nothing of anyone's; the templates are listed", async () => {
    expect((await alice.client.listResources()).resources).toEqual([]);
    expect((await bob.client.listResourceTemplates()).resourceTemplates).toHaveLength(3);
  });
});
