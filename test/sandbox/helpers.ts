/** Loopback HTTP helpers for the sandbox tests (plain fetch, not the project's client). */
import { createServer, type IncomingHttpHeaders } from "node:http";
import type { AddressInfo } from "node:net";
import type { z } from "zod";
import type { Sandbox } from "../../src/sandbox/index.js";

export const KEY = "test-key-123456";

export interface Reply {
  status: number;
  headers: Headers;
  text: string;
  body: any;
}

export async function call(
  sandbox: Sandbox,
  method: string,
  path: string,
  options: { body?: unknown; raw?: string; headers?: Record<string, string>; auth?: string | null } = {},
): Promise<Reply> {
  const headers: Record<string, string> = { ...options.headers };
  if (options.auth !== null) headers.authorization = options.auth ?? `Bearer ${KEY}`;
  let body: string | undefined = options.raw;
  if (options.body !== undefined) body = JSON.stringify(options.body);
  if (body !== undefined) headers["content-type"] = "application/json";
  const res = await fetch(path.startsWith("http") ? path : `${sandbox.url}${path}`, {
    method,
    headers,
    body,
  });
  const text = await res.text();
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    parsed = undefined;
  }
  return { status: res.status, headers: res.headers, text, body: parsed };
}

/** Parses with a schema and fails the test with zod's message when the shape is wrong. */
export function shape<S extends z.ZodType>(schema: S, value: unknown): z.output<S> {
  const result = schema.safeParse(value);
  if (!result.success)
    throw new Error(`shape mismatch: ${result.error.message}\n${JSON.stringify(value).slice(0, 500)}`);
  return result.data;
}

export { until } from "../helpers/mcp.js";

export interface Received {
  path: string;
  headers: IncomingHttpHeaders;
  body: any;
}

/** A real HTTP listener on 127.0.0.1:0 that records POSTed JSON bodies. */
export async function startReceiver() {
  const received: Received[] = [];
  const waiters: (() => void)[] = [];
  const server = createServer((req, res) => {
    let data = "";
    req.on("data", (chunk) => {
      data += chunk;
    });
    req.on("end", () => {
      received.push({ path: req.url ?? "", headers: req.headers, body: JSON.parse(data || "null") });
      res.writeHead(204).end();
      for (const w of waiters.splice(0)) w();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url,
    received,
    /** Resolves once `count` deliveries have arrived. */
    async waitFor(count: number): Promise<Received[]> {
      while (received.length < count) await new Promise<void>((r) => waiters.push(r));
      return received;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
