/**
 * `serp_search_async`, the tool added on the SERP async route by AGENTS.md's four edits alone
 * (the tool file, one registry line; the route entry and the sandbox route were there), end to
 * end over Streamable HTTP with a real MCP client against the sandbox, on API generation 2 and on
 * 1: submit → handle → get_task returns the SERP results (those serp_search gives). What the
 * route's table entry brings with no other edit: the submission carries this server's webhook
 * (the sandbox calls it back when the task ends), the task is its maker's (another user's
 * get_task answers as for an unknown id), and it is sent once. Also get_task on a serp_search
 * batch's task, which answered the engine URL and nothing else before.
 */
import { CallToolResultSchema } from "@modelcontextprotocol/sdk/types.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Authenticator, Identity } from "../../src/server/http/auth/authenticate.js";
import { CALLBACK_PATH } from "../../src/server/http/callbacks.js";
import { useHttpServerOn } from "../helpers/http-server.js";
import { until } from "../helpers/mcp.js";
import { useSandbox } from "../helpers/sandbox.js";
import { type Connected, connect, textOf } from "../http/helpers.js";

const KEY = "wdk_serpasynctoolQZXJV";
const user = (sub: string): Identity => ({ kind: "oauth", issuer: "https://issuer.test", subject: sub });
const USERS: Record<string, Identity> = { alice: user("alice"), bob: user("bob") };
const authenticate: Authenticator = (request) => {
  const auth = USERS[request.headers.get("authorization")?.replace(/^Bearer /, "") ?? ""];
  return auth ? { ok: true, identity: auth } : { ok: false, status: 401, message: "Unauthorized" };
};

const sandbox = useSandbox({ key: KEY, taskLatencyMs: 20, allowCallbacks: true });
const SEARCH = { search_engine: "engine1_search", query: "waterproof hiking boots", num_results: 5 };

type Result = Awaited<ReturnType<Connected["client"]["callTool"]>> & { structuredContent?: any };
const call = (who: Connected, name: string, args: Record<string, unknown>) =>
  who.client.callTool({ name, arguments: args }, CallToolResultSchema) as Promise<Result>;

describe.each([2, 1] as const)("API generation %i", (gen) => {
  const http = useHttpServerOn(sandbox, KEY, {
    env: { WEBDATA_API_GENERATION: String(gen), WEBDATA_TOOLSETS: "search,tasks" },
    server: { authenticate, publicUrl: (port) => `http://127.0.0.1:${port}` },
  });
  let alice: Connected;
  let bob: Connected;
  beforeAll(async () => {
    alice = await connect(http.url, { authorization: "Bearer alice" });
    bob = await connect(http.url, { authorization: "Bearer bob" });
  });
  afterAll(async () => {
    await alice?.close();
    await bob?.close();
  });
  const posts = (from: number) =>
    sandbox.requests.slice(from).filter((q) => q.method === "POST" && q.path.endsWith("/serp/async"));

  /** The organic results serp_search answers for the search, as URLs. */
  async function expectedUrls(): Promise<string[]> {
    const plain = await call(alice, "serp_search", SEARCH);
    expect(plain.isError, textOf(plain)).toBeFalsy();
    const urls = plain.structuredContent.results.map((r: { url: string }) => r.url);
    expect(urls.length).toBeGreaterThan(0);
    return urls;
  }

  it("get_task on a serp_search batch's task lists that query's organic results", async () => {
    const urls = await expectedUrls();
    const batch = await call(alice, "serp_search", { ...SEARCH, query: undefined, queries: [SEARCH.query] });
    expect(batch.isError, textOf(batch)).toBeFalsy();
    const [task] = batch.structuredContent.queries;
    const read = await call(alice, "get_task", { task_id: task.task_id });
    expect(read.isError, textOf(read)).toBeFalsy();
    expect(read.structuredContent).toMatchObject({ status: "done", format: "markdown" });
    for (const url of urls) {
      expect(textOf(read)).toContain(url);
      expect(read.structuredContent.content).toContain(url);
    }
  });

  it("serp_search_async: submit → handle → get_task returns the SERP results, called back through this server's webhook", async () => {
    const urls = await expectedUrls();
    const from = sandbox.requests.length;
    const callbacksFrom = sandbox.callbacks.length;
    const delivered = http.callbacks!.deliveries;

    const handle = await call(alice, "serp_search_async", SEARCH);
    expect(handle.isError, textOf(handle)).toBeFalsy();
    const id = handle.structuredContent.task_id;
    expect(handle.structuredContent).toEqual({
      status: "pending",
      task_id: id,
      resume: { tool: "get_task", arguments: { task_id: id } },
    });
    expect(textOf(handle)).toContain(`get_task {"task_id":"${id}"}`);
    expect(posts(from).map((q) => q.path)).toEqual([`/v${gen}/serp/async`]);

    // The webhook the route's entry places (callback_url): the sandbox calls this server back.
    await until(
      () => http.callbacks!.deliveries,
      (n) => n > delivered,
    );
    const called = sandbox.callbacks.slice(callbacksFrom).map((c) => new URL(c.url));
    expect(called.map((u) => `${u.origin}${u.pathname.slice(0, CALLBACK_PATH.length)}`)).toEqual([
      `${new URL(http.url).origin}${CALLBACK_PATH}`,
    ]);

    const done = await until(
      () => call(alice, "get_task", handle.structuredContent.resume.arguments),
      (r) => r.structuredContent?.status === "done",
    );
    expect(done.isError, textOf(done)).toBeFalsy();
    expect(done.structuredContent).toMatchObject({ status: "done", task_id: id, format: "markdown" });
    for (const url of urls) expect(textOf(done)).toContain(url);
    const reads = sandbox.requests.slice(from).filter((q) => q.path.includes(id));
    expect(reads.length).toBeGreaterThan(0);
    for (const q of reads) expect(q.path.startsWith(`/v${gen}/tasks/${id}`), q.path).toBe(true);
  });

  it("serp_search_async: the task is its maker's: another user's get_task answers as for an unknown id, and lists it not", async () => {
    const handle = await call(alice, "serp_search_async", SEARCH);
    const id = handle.structuredContent.task_id;
    const theirs = await call(bob, "get_task", { task_id: id });
    const unknown = await call(bob, "get_task", { task_id: "00000000-0000-4000-a000-00000000dead" });
    expect(theirs.isError).toBe(true);
    expect(textOf(theirs).replace(id, "ID")).toBe(
      textOf(unknown).replace("00000000-0000-4000-a000-00000000dead", "ID"),
    );
    const listed = await call(bob, "get_task", { limit: 100 });
    expect(JSON.stringify(listed.structuredContent)).not.toContain(id);
    const own = await call(alice, "get_task", { limit: 100 });
    expect(JSON.stringify(own.structuredContent)).toContain(id);
  });

  it("serp_search_async is sent once: a 503 on the submission is not retried, and the answer says how to check", async () => {
    const from = sandbox.requests.length;
    sandbox.faults.add({ kind: "status", status: 503, match: `POST /v${gen}/serp/async` });
    let r: Result;
    try {
      r = await call(alice, "serp_search_async", SEARCH);
    } finally {
      sandbox.faults.clear();
    }
    expect(r.isError).toBe(true);
    expect(textOf(r)).toContain("It was not sent again");
    expect(textOf(r)).toContain("check with get_task {}");
    expect(posts(from)).toHaveLength(1);
  });
});
