import type { AgentDetail } from "../api/schemas.js";

export interface SandboxOptions {
  /** Interface to bind; default 127.0.0.1. */
  host?: string;
  /** Port to bind; default 0 (ephemeral). */
  port?: number;
  /** Accept only this bearer key; default: any non-empty key. */
  key?: string;
  /** Accepted Basic credential "user:pass" of the legacy endpoint; default "demo:demo". */
  legacyAuth?: string;
  /** Requests per second per key; default 83. */
  rateLimit?: number;
  /** Time a task stays pending before it ends; default 300. */
  taskLatencyMs?: number;
  /** Time per crawled page; default 100. */
  crawlPageMs?: number;
  /** Added latency on GET /v1/agents* (cold-start tests); default 0. */
  catalogDelayMs?: number;
  /** Pad the agent catalog with N generated agents. */
  extraAgents?: number;
  /**
   * Send webhook callbacks (to loopback addresses only); default false: callbacks are recorded
   * in `callbacks` as not sent. `--allow-callbacks` on the command line.
   */
  allowCallbacks?: boolean;
  /** Extra Host header values answered besides loopback (`name` or `name:port`; `*` = any). */
  allowedHosts?: string[];
  /**
   * "spec" (default): responses as the spec shows them; "live": in the shapes of the live
   * service's published types (see dialect.ts). A request can ask for either with the header
   * `X-Sandbox-Dialect`.
   */
  dialect?: "spec" | "live";
  /**
   * Serve the generation-2 routes that stand in for generation-1 ones (`/v2/extract`, `/v2/tasks`,
   * `/v2/crawl`, `/v2/map`, …; the route tables of routes/, routing.ts); default true. False: they answer 404, as a
   * generation-1-only service would (the `/v2` routes of the spec itself stay).
   */
  generation2?: boolean;
}

/** One callback the sandbox was asked to send. */
export interface CallbackLogEntry {
  url: string;
  /** ms epoch */
  at: number;
  /** False when refused: callbacks off, or not a loopback address. */
  sent: boolean;
  refused?: string;
}

export type TunableOptions = Pick<
  SandboxOptions,
  "taskLatencyMs" | "crawlPageMs" | "catalogDelayMs" | "rateLimit" | "generation2"
>;

export type AuthKind = "bearer" | "basic" | "none";

export interface RequestLogEntry {
  method: string;
  /** Path without the query string, e.g. /v1/tasks/abc. */
  path: string;
  /** HTTP status sent; 0 when the connection was reset by a fault. */
  status: number;
  /** Milliseconds since the epoch when the request arrived. */
  at: number;
  auth: AuthKind;
}

export type FaultKind =
  | "latency"
  | "rate_limit"
  | "status"
  | "reset"
  | "malformed"
  | "task_error"
  | "crawl_fail";

export interface Fault {
  kind: FaultKind;
  /** Substring of "METHOD /path" the fault applies to (ending in `$`: its end); default: every API request. */
  match?: string;
  /** Number of matching requests it applies to; default: unlimited. */
  count?: number;
  /** Latency in milliseconds, for "latency". */
  ms?: number;
  /** Status for "status": 400/401/402/422/500/502/503/504. */
  status?: number;
  /** Seconds, for "rate_limit" (the 429 body's retry_after and the Retry-After header). */
  retryAfter?: number;
  /**
   * For "reset": "accept" lets the request be handled (a submission IS created) and resets the
   * connection instead of sending the response; default: reset before the body is read.
   */
  after?: "accept";
}

export interface FaultController {
  add(fault: Fault): void;
  /** Removes every fault and lets the requests a latency fault holds go on at once. */
  clear(): void;
  /** Faults still active (count not yet used up). */
  list(): Fault[];
}

export interface Sandbox {
  /** Base URL, e.g. http://127.0.0.1:PORT (the {base_url}). */
  url: string;
  /** `${url}/legacy` (the {legacy_base_url}). */
  legacyUrl: string;
  /** The demo web site, `${url}/site`. */
  siteUrl: string;
  /** The address actually bound, `host:port` (e.g. `0.0.0.0:41234`). */
  bound: string;
  /** Every API request seen (not /site/* nor /_sandbox/*), oldest first. */
  requests: RequestLogEntry[];
  /** Every callback asked for, sent or refused, oldest first. */
  callbacks: CallbackLogEntry[];
  faults: FaultController;
  configure(p: Partial<TunableOptions>): void;
  catalog: { add(agent: AgentDetail): void; remove(name: string): void };
  close(): Promise<void>;
}
