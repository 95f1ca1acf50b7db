/** Loopback HTTP helpers for the sandbox tests (plain fetch, not the project's client). */
import type { IncomingHttpHeaders } from "node:http";
import type { z } from "zod";
import type { Sandbox } from "../../src/sandbox/index.js";
import { startFakeServer } from "../helpers/fake-upstream.js";

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

/** The fake upstream as a callback receiver: answers 204 and hands back the POSTed JSON bodies. */
export async function startReceiver() {
  const fake = await startFakeServer();
  const parsed = (): Received[] =>
    fake.requests.map((r) => ({ path: r.url, headers: r.headers, body: JSON.parse(r.body || "null") }));
  return {
    url: fake.url,
    get received(): Received[] {
      return parsed();
    },
    /** Resolves once `count` deliveries have arrived. */
    async waitFor(count: number): Promise<Received[]> {
      await fake.received(count);
      return parsed();
    },
    close: () => fake.close(),
  };
}
