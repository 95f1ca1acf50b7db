/**
 * The fake upstream: a scripted HTTP server on 127.0.0.1:0 (one handler call per request, every
 * request recorded) standing in for the API, an OAuth issuer, an OTLP collector or a webhook
 * receiver; tests that need the API's real behaviour use the sandbox instead.
 */
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { Readable } from "node:stream";

export interface SeenRequest {
  method: string;
  url: string;
  headers: IncomingMessage["headers"];
  body: string;
  at: number;
}

export type Handler = (req: SeenRequest, res: ServerResponse, index: number) => void | Promise<void>;

export interface FakeServer {
  url: string;
  requests: SeenRequest[];
  /** Resolves once `count` requests have arrived (an event, not a poll); the test timeout bounds it. */
  received(count: number): Promise<SeenRequest[]>;
  close(): Promise<void>;
}

export function json(
  res: ServerResponse,
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
): void {
  res.writeHead(status, { "content-type": "application/json", ...headers });
  res.end(JSON.stringify(body));
}

/** Answers 204 to everything: a receiver that only records. */
export const noContent: Handler = (_req, res) => void res.writeHead(204).end();

export async function startFakeServer(handler: Handler = noContent): Promise<FakeServer> {
  const requests: SeenRequest[] = [];
  const waiters = new Set<() => void>();
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const seen: SeenRequest = {
        method: req.method ?? "",
        url: req.url ?? "",
        headers: req.headers,
        body: Buffer.concat(chunks).toString("utf8"),
        at: Date.now(),
      };
      requests.push(seen);
      for (const wake of [...waiters]) wake();
      Promise.resolve(handler(seen, res, requests.length - 1)).catch(() => res.destroy());
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    received: (count) =>
      new Promise((resolve) => {
        const check = () => {
          if (requests.length < count) return;
          waiters.delete(check);
          resolve(requests);
        };
        waiters.add(check);
        check();
      }),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** A port on 127.0.0.1 with nothing listening (bound, then released). */
export async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

export const TASK = {
  id: "7d0f3c1e-0000-4000-8000-000000000001",
  state: "pending",
  created_at: "2026-01-01T00:00:00.000Z",
};

/**
 * Sends a recorded request on to `baseUrl` (the sandbox, say) and answers with its answer: an
 * event stream is piped as it comes; a JSON body goes through `rewrite` first when one is given.
 */
export async function forward(
  baseUrl: string,
  req: SeenRequest,
  res: ServerResponse,
  rewrite?: (body: unknown) => unknown,
): Promise<void> {
  const headers: Record<string, string> = {};
  for (const h of ["authorization", "content-type", "accept", "x-sandbox-dialect"]) {
    const v = req.headers[h];
    if (typeof v === "string") headers[h] = v;
  }
  const answer = await fetch(`${baseUrl}${req.url}`, {
    method: req.method,
    headers,
    body: req.method === "GET" || req.method === "HEAD" ? undefined : req.body,
  });
  const type = answer.headers.get("content-type") ?? "";
  if (type.includes("event-stream") && answer.body) {
    res.writeHead(answer.status, { "content-type": type });
    Readable.fromWeb(answer.body as never).pipe(res);
    return;
  }
  const bytes = Buffer.from(await answer.arrayBuffer());
  if (rewrite && type.includes("json"))
    return json(res, answer.status, rewrite(JSON.parse(bytes.toString("utf8"))));
  res.writeHead(answer.status, { "content-type": type });
  res.end(bytes);
}
