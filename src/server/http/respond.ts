/** Small helpers for answering on plain `node:http`: JSON bodies, JSON-RPC errors, body reading. */
import type { IncomingMessage, ServerResponse } from "node:http";

export function sendJson(
  res: ServerResponse,
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
): void {
  if (res.headersSent) {
    res.end();
    return;
  }
  const text = JSON.stringify(body);
  res.writeHead(status, {
    ...headers,
    "content-type": "application/json",
    "content-length": Buffer.byteLength(text),
    "cache-control": "no-store",
  });
  res.end(text);
}

/** JSON-RPC error codes used by the transport layer. */
export const RPC = { parseError: -32700, invalidRequest: -32600, serverError: -32000, internal: -32603 };

export function sendRpcError(
  res: ServerResponse,
  status: number,
  message: string,
  options: { code?: number; id?: unknown; headers?: Record<string, string> } = {},
): void {
  sendJson(
    res,
    status,
    { jsonrpc: "2.0", error: { code: options.code ?? RPC.serverError, message }, id: options.id ?? null },
    options.headers,
  );
}

export class BodyError extends Error {
  constructor(
    readonly status: 400 | 413 | 415,
    message: string,
  ) {
    super(message);
  }
}

/** Reads and parses a JSON body of at most `limit` bytes. */
export async function readJsonBody(req: IncomingMessage, limit: number): Promise<unknown> {
  const type = req.headers["content-type"] ?? "";
  if (!/^application\/json\b/i.test(type)) {
    throw new BodyError(415, "Unsupported Media Type: Content-Type must be application/json");
  }
  const declared = Number(req.headers["content-length"]);
  if (Number.isFinite(declared) && declared > limit) throw new BodyError(413, "Payload Too Large");
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > limit) throw new BodyError(413, "Payload Too Large");
    chunks.push(chunk as Buffer);
  }
  try {
    return JSON.parse(Buffer.concat(chunks).toString("utf8"));
  } catch {
    throw new BodyError(400, "Parse error: the body is not valid JSON");
  }
}

/** First value of a header (node gives arrays for repeated ones). */
export function header(req: IncomingMessage, name: string): string | undefined {
  const value = req.headers[name];
  return Array.isArray(value) ? value[0] : value;
}
