/**
 * The HTTP transport: one undici dispatcher per client (an Agent keeps one keep-alive pool per
 * origin; with HTTP(S)_PROXY set it is an EnvHttpProxyAgent, which honours NO_PROXY), and a
 * `send()` that reports whether the request reached a socket. That bit is what lets the retry
 * policy tell "refused before sending" (safe to re-send) from "failed after sending" (a
 * submission may have been accepted).
 */
import { Agent, type Dispatcher, EnvHttpProxyAgent } from "undici";
import type { ProxySettings } from "./options.js";

export interface Timeouts {
  /** TCP (and TLS/proxy tunnel) connect. */
  connectMs: number;
  /** From the request being sent to the response headers. */
  headersMs: number;
  /** Between two chunks of the response body. */
  bodyMs: number;
}

export const DEFAULT_TIMEOUTS: Timeouts = { connectMs: 10_000, headersMs: 60_000, bodyMs: 30_000 };

/** Responses larger than this are refused (a guard against a runaway body). */
const MAX_BODY_BYTES = 64 * 1024 * 1024;

/** A keep-alive dispatcher with the given timeouts; through the proxy when the configuration names one. */
export function createDispatcher(timeouts: Timeouts, proxy?: ProxySettings): Dispatcher {
  const options = {
    connect: { timeout: timeouts.connectMs },
    headersTimeout: timeouts.headersMs,
    bodyTimeout: timeouts.bodyMs,
    keepAliveTimeout: 10_000,
  };
  return proxy ? new EnvHttpProxyAgent({ ...options, ...proxy }) : new Agent(options);
}

export interface HttpRequest {
  url: URL;
  method: "GET" | "POST" | "DELETE" | "PATCH";
  headers: Record<string, string>;
  body?: string;
  signal?: AbortSignal;
}

export interface HttpResponse {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: Buffer;
}

/** A failure below HTTP (connect, reset, timeout, abort). */
export class TransportError extends Error {
  /** The undici or Node error code, e.g. UND_ERR_SOCKET, ECONNREFUSED, UND_ERR_HEADERS_TIMEOUT. */
  readonly code: string;
  /** True once the request was handed to a connected socket: the server may have received it. */
  readonly sent: boolean;
  /** True when the caller's signal aborted the request. */
  readonly aborted: boolean;

  constructor(message: string, code: string, sent: boolean, aborted: boolean) {
    super(message);
    this.name = "TransportError";
    this.code = code;
    this.sent = sent;
    this.aborted = aborted;
  }
}

function errorCode(err: unknown): string {
  if (err && typeof err === "object") {
    const code = (err as { code?: unknown }).code;
    if (typeof code === "string") return code;
    const cause = (err as { cause?: unknown }).cause;
    if (cause && cause !== err) return errorCode(cause);
  }
  return "UNKNOWN";
}

function errorMessage(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}

/** Sends one request and buffers the whole response. Rejects only with `TransportError`. */
export function send(dispatcher: Dispatcher, req: HttpRequest): Promise<HttpResponse> {
  return new Promise<HttpResponse>((resolve, reject) => {
    let settled = false;
    let sent = false;
    let controller: Dispatcher.DispatchController | undefined;
    let status = 0;
    let headers: HttpResponse["headers"] = {};
    const chunks: Buffer[] = [];
    let size = 0;

    const finish = (outcome: () => void) => {
      if (settled) return;
      settled = true;
      req.signal?.removeEventListener("abort", onAbort);
      outcome();
    };
    let cancelled = false;
    const fail = (err: unknown) =>
      finish(() => reject(new TransportError(errorMessage(err), errorCode(err), sent, cancelled)));
    const abortError = () => Object.assign(new Error("request aborted"), { code: "UND_ERR_ABORTED" });
    function onAbort() {
      cancelled = true;
      const err = abortError();
      controller?.abort(err);
      fail(err);
    }

    if (req.signal?.aborted) {
      cancelled = true;
      fail(abortError());
      return;
    }
    req.signal?.addEventListener("abort", onAbort, { once: true });

    const handler: Dispatcher.DispatchHandler = {
      onRequestStart(ctrl) {
        controller = ctrl;
        if (settled) {
          ctrl.abort(abortError());
          return;
        }
        sent = true;
      },
      onResponseStart(_ctrl, statusCode, responseHeaders) {
        status = statusCode;
        headers = responseHeaders;
      },
      onResponseData(ctrl, chunk) {
        size += chunk.length;
        if (size > MAX_BODY_BYTES) {
          const err = Object.assign(new Error(`response body larger than ${MAX_BODY_BYTES} bytes`), {
            code: "UND_ERR_RES_EXCEEDED_MAX_SIZE",
          });
          ctrl.abort(err);
          return;
        }
        chunks.push(chunk);
      },
      onResponseEnd() {
        finish(() => resolve({ status, headers, body: Buffer.concat(chunks) }));
      },
      onResponseError(_ctrl, err) {
        fail(err);
      },
    };

    try {
      dispatcher.dispatch(
        {
          origin: req.url.origin,
          path: `${req.url.pathname}${req.url.search}`,
          method: req.method,
          headers: req.headers,
          body: req.body ?? null,
        },
        handler,
      );
    } catch (err) {
      fail(err);
    }
  });
}

/** Reads one response header as a string (the first value when repeated). */
export function headerValue(headers: HttpResponse["headers"], name: string): string | undefined {
  const value = headers[name.toLowerCase()];
  return Array.isArray(value) ? value[0] : value;
}
