import { isJSONRPCRequest, JSONRPCMessageSchema } from "@modelcontextprotocol/sdk/types.js";
import { describe, expect, it } from "vitest";
import { isRequest } from "../../src/delegating-transport.js";

// What a transport hands on: lines the SDK parsed as a JSON-RPC message. The cheap check must
// agree with the SDK's own schema guard on each kind, and on the loose shapes the schema lets through.
const LINES = [
  { jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: "extract_page", arguments: {} } },
  { jsonrpc: "2.0", id: "a-7", method: "ping" },
  { jsonrpc: "2.0", id: 0, method: "tools/list", params: { _meta: { progressToken: 3 } } },
  { jsonrpc: "2.0", method: "notifications/initialized" },
  { jsonrpc: "2.0", method: "notifications/cancelled", params: { requestId: 1, reason: "x" } },
  { jsonrpc: "2.0", id: 1, result: {} },
  { jsonrpc: "2.0", id: 2, result: { content: [], method: "not a request" } },
  { jsonrpc: "2.0", id: 3, error: { code: -32601, message: "Method not found" } },
  { jsonrpc: "2.0", error: { code: -32700, message: "Parse error" } },
];

describe("isRequest", () => {
  it.each(LINES)("agrees with the SDK's isJSONRPCRequest on %j", (line) => {
    const message = JSONRPCMessageSchema.parse(line);
    expect(isRequest(message)).toBe(isJSONRPCRequest(message));
  });

  it("finds the requests among them", () => {
    const requests = LINES.map((l) => JSONRPCMessageSchema.parse(l)).filter(isRequest);
    expect(requests.map((r) => r.method)).toEqual(["tools/call", "ping", "tools/list"]);
  });
});
