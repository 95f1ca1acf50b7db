/**
 * Protocol answers over HTTP (issue 23): a bad or unsupported `MCP-Protocol-Version` header gets
 * 400 on every method; a second `initialize` in a session is refused; invalid params of a
 * protocol method get -32602 naming the field, without a doubled `MCP error` prefix.
 */
import { GetTaskResultSchema } from "@modelcontextprotocol/sdk/types.js";
import { beforeAll, describe, expect, it } from "vitest";
import { useHttpServer } from "../helpers/http-server.js";
import { connect, INITIALIZE, raw } from "./helpers.js";

const KEY = "wdk_protoQZXJVKWPRTMN";
const fx = useHttpServer(KEY);
let session: string;

beforeAll(async () => {
  const opened = await raw(fx.http.url, { body: INITIALIZE });
  session = opened.headers["mcp-session-id"] as string;
});

const post = (body: unknown, version = "2025-06-18") =>
  raw(fx.http.url, { headers: { "mcp-session-id": session, "mcp-protocol-version": version }, body });

/** The JSON-RPC message of a POST answered as JSON or as one SSE event. */
function message(body: string): { error?: { code: number; message: string }; result?: unknown } {
  const data = body.split("\n").find((l) => l.startsWith("data: {"));
  return JSON.parse(data ? data.slice(6) : body);
}

describe("MCP-Protocol-Version", () => {
  it.each(["1999-01-01", "2025-06-19", "garbage"])(
    "answers %s with 400 on POST, GET and DELETE",
    async (v) => {
      const ping = await post({ jsonrpc: "2.0", id: 2, method: "ping" }, v);
      expect(ping.status).toBe(400);
      // A version that is not a 2025 one is sorted to the 2026-07-28 path by the SDK's classifier
      // (isLegacyRequest), which answers it there: still a 400 naming the header.
      expect(ping.body).toMatch(/protocol[- ]version/i);
      const headers = { "mcp-session-id": session, "mcp-protocol-version": v };
      const get = await raw(fx.http.url, {
        method: "GET",
        headers: { ...headers, accept: "text/event-stream", "last-event-id": "x" },
      });
      expect(get.status).toBe(400);
      expect((await raw(fx.http.url, { method: "DELETE", headers })).status).toBe(400);
      // The session survived the refused DELETE.
      expect((await post({ jsonrpc: "2.0", id: 3, method: "ping" })).status).toBe(200);
    },
  );

  it("serves a supported version", async () => {
    const ping = await post({ jsonrpc: "2.0", id: 4, method: "ping" }, "2025-11-25");
    expect(ping.status).toBe(200);
  });
});

describe("initialize", () => {
  it("refuses a second initialize in a session", async () => {
    const again = await post({ ...INITIALIZE, id: 5 });
    expect(again.status).toBe(400);
    expect(message(again.body).error?.code).toBe(-32600);
    expect(message(again.body).error?.message).toMatch(/already initialized/);
    const batched = await post([{ ...INITIALIZE, id: 6 }]);
    expect(batched.status).toBe(400);
  });
});

describe("invalid params of a protocol method", () => {
  it("gets -32602 naming the field", async () => {
    const answer = message(
      (await post({ jsonrpc: "2.0", id: 7, method: "logging/setLevel", params: { level: "loud" } })).body,
    );
    expect(answer.error?.code).toBe(-32602);
    expect(answer.error?.message).toContain("params.level");
    expect(answer.error?.message).not.toMatch(/MCP error/);
  });

  it("reaches an SDK client with the MCP error prefix once", async () => {
    const connected = await connect(fx.http.url);
    try {
      const error = await connected.client
        .request({ method: "tasks/get", params: { taskId: "no-such-task" } }, GetTaskResultSchema)
        .catch((e: Error) => e);
      expect(error).toBeInstanceOf(Error);
      expect((error as Error).message.match(/MCP error/g)).toHaveLength(1);
    } finally {
      await connected.close();
    }
  });
});
