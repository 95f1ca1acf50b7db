/** The option, argument and response types of WebDataClient (re-exported by client.ts). */

import type { Dispatcher } from "undici";
import type { z } from "zod";
import type { Clock } from "../clock.js";
import type { ClientRuntime } from "./client-runtime.js";
import type { Timeouts } from "./http.js";
import type { ApiObserver } from "./observer.js";
import type { GenerationSetting, ProxySettings } from "./options.js";
import type { SharedRateStore } from "./rate-limiter.js";
import type {
  AgentBatchRequestSchema,
  ArtifactDownloadSchema,
  BatchDetailSchema,
  BatchListResponseSchema,
  CrawlIdResponseSchema,
  DomainHealthResponseSchema,
  DriverKnowledgeSchema,
  JobRunListSchema,
  SocialEventResponseSchema,
  TaskIdResponseSchema,
  TaskListResponseSchema,
  TaskStatusResponseSchema,
  TemplateBatchRequestSchema,
  TemplateVersionListSchema,
} from "./schemas.js";

export interface WebDataClientOptions {
  /** `{base_url}`; a trailing slash or a path prefix is accepted. */
  baseUrl: string;
  apiKey: string;
  /** `{legacy_base_url}` for the legacy realtime endpoint. */
  legacyBaseUrl?: string;
  /** The legacy endpoint's Basic credential, "user:pass". */
  legacyAuth?: string;
  /** Client-side request rate per API key (default 83, the documented limit). */
  maxRps?: number;
  /**
   * The rate limiters and generation memory this client shares with the other clients given the
   * same runtime (`client-runtime.ts`); default: a runtime of its own.
   */
  runtime?: ClientRuntime;
  /** A fleet's shared rate limit (its Redis): `maxRps` then holds for every replica together. */
  sharedRateStore?: SharedRateStore;
  timeouts?: Partial<Timeouts>;
  /** Total attempts per call, the first included (default 4). */
  maxAttempts?: number;
  /** Total time a call may spend retrying, in ms (default 30000). */
  retryDeadlineMs?: number;
  /** An undici dispatcher to use instead of the client's own pool (the client does not close it). */
  dispatcher?: Dispatcher;
  /** Send through this proxy (the configuration's `HTTP(S)_PROXY` / `NO_PROXY`); default direct. */
  proxy?: ProxySettings;
  userAgent?: string;
  /** Told about every HTTP attempt and wait (telemetry); see observer.ts. */
  observer?: ApiObserver;
  /** Which API generation to speak (generations.ts): `auto` (default), 2 or 1. */
  generation?: GenerationSetting;
  /** The time of retry backoffs and of waits on work (`waitFor`); default real time (tests drive their own). */
  clock?: Clock;
  /** Where the one-line notes go (a route falling back to generation 1); default stderr. */
  log?: (message: string) => void;
  /** The rate limiter's lane of this client's calls (default `""`); see `CallOptions.lane`. */
  lane?: string;
}

export interface CallOptions {
  /** Cancels the call (`aborted`). A signal aborted with a "TimeoutError" reason, such as
   * `AbortSignal.timeout(ms)`, ends it as a `timeout` instead. */
  signal?: AbortSignal;
  /** Time limit of the whole call, retries included, in ms: past it the call fails with `timeout`. */
  timeoutMs?: number;
  /**
   * The rate limiter's lane this call waits in: each lane queues on its own and the key's slots
   * go round-robin between lanes with waiters, so one lane's burst does not hold up another's
   * call (the HTTP server gives each principal its lane). Default: the client's `lane`, else `""`.
   */
  lane?: string;
}

type Infer<S extends z.ZodType> = z.infer<S>;

export type TaskStatusResponse = Infer<typeof TaskStatusResponseSchema>;
export type TaskIdResponse = Infer<typeof TaskIdResponseSchema>;
export type TaskListResponse = Infer<typeof TaskListResponseSchema>;
export type BatchListResponse = Infer<typeof BatchListResponseSchema>;
export type BatchDetail = Infer<typeof BatchDetailSchema>;
export type TemplateVersionList = Infer<typeof TemplateVersionListSchema>;
export type CrawlIdResponse = Infer<typeof CrawlIdResponseSchema>;
export type DomainHealthResponse = Infer<typeof DomainHealthResponseSchema>;
export type DriverKnowledge = Infer<typeof DriverKnowledgeSchema>;
export type JobRunList = Infer<typeof JobRunListSchema>;
export type ArtifactDownload = Infer<typeof ArtifactDownloadSchema>;
export type SocialEventResponse = Infer<typeof SocialEventResponseSchema>;
export type AgentBatchRequest = z.input<typeof AgentBatchRequestSchema>;
export type TemplateBatchRequest = z.input<typeof TemplateBatchRequestSchema>;
export interface AgentListQuery {
  privacy?: "public" | "private" | "all";
  managed_by?: "vendor" | "community" | "self_managed";
  limit?: number;
  offset?: number;
}
export interface PageQuery {
  limit?: number;
  offset?: number;
}
