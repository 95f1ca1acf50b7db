/** Answers of the HTTP layer that are not the SDK's: JSON bodies and JSON-RPC errors, as web `Response`s. */

/** JSON-RPC error codes used by the transport layer. */
export const RPC = {
  parseError: -32700,
  invalidRequest: -32600,
  serverError: -32000,
  sessionNotFound: -32001,
  internal: -32603,
};

export function json(status: number, body: unknown, headers: Record<string, string> = {}): Response {
  return new Response(JSON.stringify(body), {
    status,
    headers: { ...headers, "content-type": "application/json", "cache-control": "no-store" },
  });
}

export function rpcError(
  status: number,
  message: string,
  options: { code?: number; id?: unknown; headers?: Record<string, string> } = {},
): Response {
  return json(
    status,
    { jsonrpc: "2.0", error: { code: options.code ?? RPC.serverError, message }, id: options.id ?? null },
    options.headers,
  );
}
