/**
 * The SSE streams the HTTP layer writes itself (the SDK transport writes each POST's): a session's
 * standalone GET stream and the resume of a call's stream (`Last-Event-ID`), both on hono's
 * `streamSSE`, with the headers a proxy needs to pass them through unbuffered.
 */
import type { JSONRPCMessage } from "@modelcontextprotocol/sdk/types.js";
import type { Context } from "hono";
import { type SSEStreamingApi, streamSSE } from "hono/streaming";

/** The stream of `sessionId` that `run` writes; it ends when `run` returns. */
export function sseResponse(c: Context, sessionId: string, run: (stream: SSEStreamingApi) => Promise<void>) {
  c.header("x-accel-buffering", "no");
  c.header("mcp-session-id", sessionId);
  const response = streamSSE(c, run);
  // streamSSE says no-cache; a proxy must not transform (compress, buffer) the stream either. Set
  // on the context too: hono lays its headers over the response when a middleware touches it.
  c.header("cache-control", "no-cache, no-transform");
  response.headers.set("cache-control", "no-cache, no-transform");
  return response;
}

/** One JSON-RPC message as an SSE event with its id. */
export const writeMessage = (stream: SSEStreamingApi, id: string, message: JSONRPCMessage) =>
  stream.writeSSE({ event: "message", id, data: JSON.stringify(message) });
