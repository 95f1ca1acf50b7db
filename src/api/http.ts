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
    // Node's default, given so undici never reads `http.maxHeaderSize`, which loads node:http
    // (scripts/undici-plugin.mjs).
    maxHeaderSize: 16 * 1024,
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
    const exchange = new Exchange(req.signal, resolve, reject);
    if (!exchange.begin()) return;
    try {
      dispatcher.dispatch(
        {
          origin: req.url.origin,
          path: `${req.url.pathname}${req.url.search}`,
          method: req.method,
          headers: req.headers,
          body: req.body ?? null,
        },
        exchange,
      );
    } catch (err) {
      exchange.fail(err);
    }
  });
}

const abortError = () => Object.assign(new Error("request aborted"), { code: "UND_ERR_ABORTED" });

/**
 * One request in flight, as undici's handler: buffers the response (up to MAX_BODY_BYTES),
 * settles its promise once, and records whether the request reached a socket (`sent`) and
 * whether the caller's signal ended it (`cancelled`).
 */
class Exchange implements Dispatcher.DispatchHandler {
  #settled = false;
  #sent = false;
  #cancelled = false;
  #controller: Dispatcher.DispatchController | undefined;
  #status = 0;
  #headers: HttpResponse["headers"] = {};
  readonly #chunks: Buffer[] = [];
  #size = 0;

  constructor(
    private readonly signal: AbortSignal | undefined,
    private readonly resolve: (res: HttpResponse) => void,
    private readonly reject: (err: TransportError) => void,
  ) {}

  /** Listens to the caller's signal; false (and rejected) when it has already aborted. */
  begin(): boolean {
    if (this.signal?.aborted) {
      this.#cancelled = true;
      this.fail(abortError());
      return false;
    }
    this.signal?.addEventListener("abort", this.#onAbort, { once: true });
    return true;
  }

  readonly #onAbort = () => {
    this.#cancelled = true;
    const err = abortError();
    this.#controller?.abort(err);
    this.fail(err);
  };

  fail(err: unknown): void {
    this.#finish(() =>
      this.reject(new TransportError(errorMessage(err), errorCode(err), this.#sent, this.#cancelled)),
    );
  }

  #finish(outcome: () => void): void {
    if (this.#settled) return;
    this.#settled = true;
    this.signal?.removeEventListener("abort", this.#onAbort);
    outcome();
  }

  onRequestStart(ctrl: Dispatcher.DispatchController): void {
    this.#controller = ctrl;
    if (this.#settled) {
      ctrl.abort(abortError());
      return;
    }
    this.#sent = true;
  }

  onResponseStart(
    _ctrl: Dispatcher.DispatchController,
    statusCode: number,
    headers: HttpResponse["headers"],
  ): void {
    this.#status = statusCode;
    this.#headers = headers;
  }

  onResponseData(ctrl: Dispatcher.DispatchController, chunk: Buffer): void {
    this.#size += chunk.length;
    if (this.#size > MAX_BODY_BYTES) {
      const err = Object.assign(new Error(`response body larger than ${MAX_BODY_BYTES} bytes`), {
        code: "UND_ERR_RES_EXCEEDED_MAX_SIZE",
      });
      ctrl.abort(err);
      return;
    }
    this.#chunks.push(chunk);
  }

  onResponseEnd(): void {
    this.#finish(() =>
      this.resolve({ status: this.#status, headers: this.#headers, body: Buffer.concat(this.#chunks) }),
    );
  }

  onResponseError(_ctrl: Dispatcher.DispatchController, err: Error): void {
    this.fail(err);
  }
}

/** Reads one response header as a string (the first value when repeated). */
export function headerValue(headers: HttpResponse["headers"], name: string): string | undefined {
  const value = headers[name.toLowerCase()];
  return Array.isArray(value) ? value[0] : value;
}
