/**
 * A SERP task read with get_task, over Streamable HTTP with a real MCP client against the
 * sandbox, on API generation 2 and on 1: get_task lists a SERP task's organic results as
 * serp_search gives them (before, it answered the engine URL and nothing else).
 */
import type { AuthInfo } from "@modelcontextprotocol/sdk/server/auth/types.js";
import { CallToolResultSchema } from "@modelcontextprotocol/sdk/types.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Authenticator } from "../../src/server/http/auth.js";
import { useHttpServerOn } from "../helpers/http-server.js";
import { useSandbox } from "../helpers/sandbox.js";
import { type Connected, connect, textOf } from "../http/helpers.js";

const KEY = "wdk_serpasynctoolQZXJV";
const user = (sub: string): AuthInfo => ({
  token: sub,
  clientId: "app",
  scopes: [],
  extra: { iss: "https://issuer.test", sub },
});
const USERS: Record<string, AuthInfo> = { alice: user("alice"), bob: user("bob") };
const authenticate: Authenticator = (request) => {
  const auth = USERS[request.headers.get("authorization")?.replace(/^Bearer /, "") ?? ""];
  return auth ? { ok: true, auth } : { ok: false, status: 401, message: "Unauthorized" };
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
  beforeAll(async () => {
    alice = await connect(http.url, { authorization: "Bearer alice" });
  });
  afterAll(async () => {
    await alice?.close();
  });

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
});
