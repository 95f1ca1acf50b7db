/**
 * Issue 30's low findings over HTTP: a JSON-RPC batch is refused on the revisions that removed
 * batches (2025-06-18 and later) with one clear -32600, and served on 2025-03-26; a tool call
 * whose arguments nest 100,000 levels deep gets an `invalid_argument` result naming the limit
 * (not a stack overflow), nothing is logged as a stack trace, and the server keeps serving.
 */
import { describe, expect, it } from "vitest";
import { MAX_ARGUMENT_DEPTH } from "../../src/tools/argument-depth.js";
import { useHttpServer } from "../helpers/http-server.js";
import { INITIALIZE, raw } from "./helpers.js";

const KEY = "wdk_batchQZXJVKWPRTMN";
const logged: string[] = [];
const fx = useHttpServer(KEY, { server: { log: (line: string) => logged.push(line) } });

async function open(
  protocolVersion: string,
): Promise<(body: unknown, text?: string) => ReturnType<typeof raw>> {
  const opened = await raw(fx.http.url, {
    body: { ...INITIALIZE, params: { ...INITIALIZE.params, protocolVersion } },
  });
  expect(opened.status).toBe(200);
  const session = String(opened.headers["mcp-session-id"]);
  await raw(fx.http.url, {
    body: { jsonrpc: "2.0", method: "notifications/initialized" },
    headers: { "mcp-session-id": session, "mcp-protocol-version": protocolVersion },
  });
  return (body, text) =>
    raw(fx.http.url, {
      body,
      text,
      headers: { "mcp-session-id": session, "mcp-protocol-version": protocolVersion },
    });
}

/** Every JSON-RPC message of a POST answered as JSON or as SSE events. */
function messages(
  body: string,
): Array<{ id?: unknown; error?: { code: number; message: string }; result?: any }> {
  const data = body.split("\n").filter((l) => l.startsWith("data: {"));
  if (data.length > 0) return data.map((l) => JSON.parse(l.slice(6)));
  const parsed = JSON.parse(body);
  return Array.isArray(parsed) ? parsed : [parsed];
}

const pings = [
  { jsonrpc: "2.0", id: 21, method: "ping" },
  { jsonrpc: "2.0", id: 22, method: "ping" },
];

describe("JSON-RPC batches", () => {
  it.each(["2025-11-25", "2025-06-18"])(
    "refuses a batch in a %s session with -32600 naming the revision",
    async (v) => {
      const post = await open(v);
      const answer = await post(pings);
      expect(answer.status).toBe(400);
      const [error] = messages(answer.body);
      expect(error?.id).toBeNull();
      expect(error?.error?.code).toBe(-32600);
      expect(error?.error?.message).toBe(
        `Invalid Request: JSON-RPC batches are not supported in protocol revision ${v} (they were removed in 2025-06-18); send one request per POST`,
      );
      // One message per POST is still served.
      expect((await post(pings[0])).status).toBe(200);
    },
  );

  it("serves a batch in a 2025-03-26 session (that revision has batches)", async () => {
    const post = await open("2025-03-26");
    const answer = await post(pings);
    expect(answer.status).toBe(200);
    expect(messages(answer.body).map((m) => m.id)).toEqual(expect.arrayContaining([21, 22]));
  });
});

describe("argument depth", () => {
  const N = 100_000;
  const call = (id: number, name: string, args: string) =>
    `{"jsonrpc":"2.0","id":${id},"method":"tools/call","params":{"name":"${name}","arguments":${args}}}`;
  const deepCall = (id: number, value: string) =>
    call(id, "run_agent", `{"agent":"ecommerce_product","params":{"url":${value}}}`);

  it("answers arguments nested 100,000 levels deep with invalid_argument naming the limit", async () => {
    const post = await open("2025-11-25");
    const arrays = `${"[".repeat(N)}1${"]".repeat(N)}`;
    const objects = `${'{"a":'.repeat(N)}1${"}".repeat(N)}`;
    for (const [id, text] of [
      // A string argument given a deep object: its wording overflowed the stack (-32603).
      [30, call(30, "serp_search", `{"search_engine":"engine1_search","query":${objects}}`)],
      [31, deepCall(31, arrays)],
      [32, deepCall(32, objects)],
    ] as const) {
      const answer = await post(undefined, text);
      expect(answer.status).toBe(200);
      const reply = messages(answer.body).find((m) => m.id === id);
      expect(reply?.error).toBeUndefined();
      expect(reply?.result?.isError).toBe(true);
      expect(reply?.result?._meta?.["web-data/error"]?.code).toBe("invalid_argument");
      expect(reply?.result?.content?.[0]?.text).toContain(`more than ${MAX_ARGUMENT_DEPTH} levels deep`);
    }
    // Still serving, and nothing was logged as a stack trace.
    expect((await post({ jsonrpc: "2.0", id: 33, method: "ping" })).status).toBe(200);
    expect(logged.join("\n")).not.toMatch(/RangeError|Maximum call stack|\n\s+at /);
  });

  it("still takes arguments exactly at the limit", async () => {
    const post = await open("2025-11-25");
    // params (level 2) → url's value nests up to level 64 (arguments object is level 1).
    const depth = MAX_ARGUMENT_DEPTH - 2;
    const answer = await post(undefined, deepCall(34, `${"[".repeat(depth)}1${"]".repeat(depth)}`));
    const reply = messages(answer.body).find((m) => m.id === 34);
    // Not refused for its depth (whatever the agent makes of such a url).
    expect(reply?.error).toBeUndefined();
    expect(JSON.stringify(reply?.result)).not.toContain("levels deep");
  });
});
