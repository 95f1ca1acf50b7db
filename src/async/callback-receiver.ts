/**
 * A completion source fed by the service's callbacks (webhooks): a small HTTP server that takes
 * the POSTs the service sends when a task ends (`{task: {id, state, ...}}`) or a crawl ends, and
 * resolves `wait(id)` for that id. Pass its `url` as `callback_url` and the receiver itself as
 * `completion` to `waitFor`. It must be reachable by the service (the sandbox: loopback).
 */
import { createServer, type IncomingMessage, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { CompletionWaiters } from "./completion-waiters.js";
import { isFinal, phaseOf } from "./states.js";
import type { Completion } from "./wait.js";

const MAX_BODY_BYTES = 1024 * 1024;

export interface CallbackReceiver extends Completion {
  /** The URL to give the service as `callback_url` (or crawl `callback.url`). */
  readonly url: string;
  close(): Promise<void>;
}

export interface CallbackReceiverOptions {
  host?: string;
  port?: number;
  path?: string;
}

/** Ids of the work a callback body reports as ended (task callbacks and crawl `completed`/`failed` events). */
export function endedIds(body: unknown): string[] {
  if (typeof body !== "object" || body === null) return [];
  const b = body as Record<string, any>;
  const ids: string[] = [];
  // A task callback carries a final state; an unknown one is left to polling.
  if (
    typeof b.task?.id === "string" &&
    typeof b.task.state === "string" &&
    isFinal(phaseOf("task", b.task.state))
  )
    ids.push(b.task.id);
  const event = b.event ?? b.type ?? b.crawl?.status ?? b.status;
  const crawlId = b.crawl_id ?? b.crawl?.id;
  if (typeof crawlId === "string" && typeof event === "string" && isFinal(phaseOf("crawl", event)))
    ids.push(crawlId);
  return ids;
}

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on("data", (chunk: Buffer) => {
      size += chunk.length;
      if (size > MAX_BODY_BYTES) {
        reject(new Error("callback body too large"));
        req.destroy();
        return;
      }
      chunks.push(chunk);
    });
    req.on("end", () => resolve(Buffer.concat(chunks).toString("utf8")));
    req.on("error", reject);
  });
}

export async function startCallbackReceiver(
  options: CallbackReceiverOptions = {},
): Promise<CallbackReceiver> {
  const host = options.host ?? "127.0.0.1";
  const path = options.path ?? "/callbacks";
  const completion = new CompletionWaiters();

  const server: Server = createServer((req, res) => {
    if (req.method !== "POST" || (req.url ?? "").split("?")[0] !== path) {
      res.writeHead(404).end();
      return;
    }
    readBody(req).then(
      (text) => {
        let body: unknown;
        try {
          body = JSON.parse(text);
        } catch {
          res.writeHead(400).end();
          return;
        }
        for (const id of endedIds(body)) completion.done(id);
        res.writeHead(204).end();
      },
      () => res.writeHead(413).end(),
    );
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(options.port ?? 0, host, () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  const shownHost = host.includes(":") ? `[${host}]` : host;

  return {
    url: `http://${shownHost}:${port}${path}`,
    wait: (id: string, signal: AbortSignal) => completion.wait(id, signal),
    close(): Promise<void> {
      return new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      });
    },
  };
}
