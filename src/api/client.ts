/**
 * WebDataClient: one typed method per documented endpoint of the Web Data Service API.
 * Requests are sent as given (the tools validate arguments); responses are validated with the
 * loose schemas of schemas.ts. Every method rejects only with `ApiError`.
 */
import type { Dispatcher } from "undici";
import { z } from "zod";
import { ApiError } from "./errors.js";
import { type CallSpec, Executor } from "./executor.js";
import { createDispatcher, DEFAULT_TIMEOUTS, type Timeouts } from "./http.js";
import { sharedLimiter } from "./rate-limiter.js";
import { Redactor } from "./redact.js";
import { DEFAULT_RETRY, type RequestKind } from "./retry.js";
import {
  type AgentBatchRequestSchema,
  type AgentDetail,
  AgentDetailSchema,
  type AgentRecord,
  AgentRecordSchema,
  type AgentRunRequest,
  ArtifactDownloadSchema,
  BatchDetailSchema,
  BatchListResponseSchema,
  type BatchProgress,
  BatchProgressSchema,
  type BatchSubmission,
  BatchSubmissionSchema,
  CrawlIdResponseSchema,
  type CrawlRequest,
  type CrawlStatus,
  CrawlStatusSchema,
  DomainHealthResponseSchema,
  DriverKnowledgeSchema,
  type ExtractBatchRequest,
  type ExtractRequest,
  JobRunListSchema,
  type MapRequest,
  type SerpRequest,
  type SerpResponse,
  SerpResponseSchema,
  SocialEventResponseSchema,
  TaskIdResponseSchema,
  TaskListResponseSchema,
  type TaskResult,
  TaskResultSchema,
  TaskStatusResponseSchema,
  type TemplateBatchRequestSchema,
  type TemplateRunRequest,
  TemplateVersionListSchema,
} from "./schemas.js";

export const DEFAULT_MAX_RPS = 83;

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
  timeouts?: Partial<Timeouts>;
  /** Total attempts per call, the first included (default 4). */
  maxAttempts?: number;
  /** Total time a call may spend retrying, in ms (default 30000). */
  retryDeadlineMs?: number;
  /** An undici dispatcher to use instead of the client's own pool (the client does not close it). */
  dispatcher?: Dispatcher;
  userAgent?: string;
}

export interface CallOptions {
  signal?: AbortSignal;
}

type Query = Record<string, string | number | boolean | undefined>;
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

const AgentListSchema = z.array(AgentRecordSchema);

function parseBase(value: string, what: string): URL {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new ApiError({ code: "invalid_argument", message: `${what} is not a valid URL` });
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") {
    throw new ApiError({ code: "invalid_argument", message: `${what} must be an http(s) URL` });
  }
  if (!url.pathname.endsWith("/")) url.pathname = `${url.pathname}/`;
  url.search = "";
  url.hash = "";
  return url;
}

const seg = (value: string) => encodeURIComponent(value);

export class WebDataClient {
  readonly #base: URL;
  readonly #legacyBase: URL | undefined;
  readonly #bearer: string;
  readonly #basic: string | undefined;
  readonly #executor: Executor;
  readonly #dispatcher: Dispatcher;
  readonly #ownsDispatcher: boolean;
  #closed = false;

  constructor(options: WebDataClientOptions) {
    if (!options.apiKey) {
      throw new ApiError({ code: "invalid_argument", message: "an API key is required (WEBDATA_API_KEY)" });
    }
    this.#base = parseBase(options.baseUrl, "the base URL (WEBDATA_BASE_URL)");
    this.#legacyBase = options.legacyBaseUrl
      ? parseBase(options.legacyBaseUrl, "the legacy base URL (WEBDATA_LEGACY_BASE_URL)")
      : undefined;
    this.#bearer = `Bearer ${options.apiKey}`;
    const redactor = new Redactor([options.apiKey, options.legacyAuth]);
    if (options.legacyAuth) {
      const encoded = Buffer.from(options.legacyAuth, "utf8").toString("base64");
      redactor.add(encoded);
      this.#basic = `Basic ${encoded}`;
    }
    const maxRps = options.maxRps ?? DEFAULT_MAX_RPS;
    this.#ownsDispatcher = options.dispatcher === undefined;
    this.#dispatcher = options.dispatcher ?? createDispatcher({ ...DEFAULT_TIMEOUTS, ...options.timeouts });
    this.#executor = new Executor({
      dispatcher: this.#dispatcher,
      limiter: sharedLimiter(options.apiKey, this.#base.origin, maxRps),
      redactor,
      retry: {
        ...DEFAULT_RETRY,
        maxAttempts: Math.max(1, options.maxAttempts ?? DEFAULT_RETRY.maxAttempts),
        deadlineMs: options.retryDeadlineMs ?? DEFAULT_RETRY.deadlineMs,
      },
      userAgent: options.userAgent ?? "web-data-mcp/0.1.0",
    });
  }

  // ---------- plumbing ----------

  #url(base: URL, path: string, query?: Query): URL {
    const url = new URL(path, base);
    for (const [name, value] of Object.entries(query ?? {})) {
      if (value !== undefined) url.searchParams.set(name, String(value));
    }
    return url;
  }

  #get<T>(path: string, schema: z.ZodType<T>, opts?: CallOptions, query?: Query): Promise<T> {
    return this.#call({ method: "GET", path, schema, kind: "read", signal: opts?.signal, query });
  }

  #post<T>(
    path: string,
    body: unknown,
    kind: RequestKind,
    schema: z.ZodType<T>,
    opts?: CallOptions,
  ): Promise<T> {
    return this.#call({ method: "POST", path, body, schema, kind, signal: opts?.signal });
  }

  #call<T>(req: Omit<CallSpec<T>, "url" | "authorization"> & { path: string; query?: Query }): Promise<T> {
    return this.#executor.call({
      ...req,
      url: this.#url(this.#base, req.path, req.query),
      authorization: this.#bearer,
    });
  }

  // ---------- search and extract ----------

  serp(body: SerpRequest, opts?: CallOptions): Promise<SerpResponse> {
    return this.#post("v2/serp", body, "submission", SerpResponseSchema, opts);
  }

  extract(body: ExtractRequest, opts?: CallOptions): Promise<TaskResult> {
    return this.#post("v1/extract", body, "submission", TaskResultSchema, opts);
  }

  extractAsync(body: ExtractRequest, opts?: CallOptions): Promise<TaskIdResponse> {
    return this.#post("v1/extract/async", body, "submission", TaskIdResponseSchema, opts);
  }

  extractBatch(body: ExtractBatchRequest, opts?: CallOptions): Promise<BatchSubmission> {
    return this.#post("v1/extract/batch", body, "submission", BatchSubmissionSchema, opts);
  }

  // ---------- tasks and batches ----------

  getTask(taskId: string, opts?: CallOptions): Promise<TaskStatusResponse> {
    return this.#get(`v1/tasks/${seg(taskId)}`, TaskStatusResponseSchema, opts);
  }

  getTaskResults(taskId: string, opts?: CallOptions): Promise<TaskResult> {
    return this.#get(`v1/tasks/${seg(taskId)}/results`, TaskResultSchema, opts);
  }

  listTasks(query: { cursor?: string; limit?: number } = {}, opts?: CallOptions): Promise<TaskListResponse> {
    return this.#get("v1/tasks", TaskListResponseSchema, opts, query);
  }

  listBatches(opts?: CallOptions): Promise<BatchListResponse> {
    return this.#get("v1/batches", BatchListResponseSchema, opts);
  }

  getBatch(batchId: string, opts?: CallOptions): Promise<BatchDetail> {
    return this.#get(`v1/batches/${seg(batchId)}`, BatchDetailSchema, opts);
  }

  getBatchProgress(batchId: string, opts?: CallOptions): Promise<BatchProgress> {
    return this.#get(`v1/batches/${seg(batchId)}/progress`, BatchProgressSchema, opts);
  }

  // ---------- agents and templates ----------

  listAgents(query: AgentListQuery = {}, opts?: CallOptions): Promise<AgentRecord[]> {
    return this.#get("v1/agents", AgentListSchema, opts, { ...query });
  }

  getAgent(name: string, opts?: CallOptions): Promise<AgentDetail> {
    return this.#get(`v1/agents/${seg(name)}`, AgentDetailSchema, opts);
  }

  runAgent(body: AgentRunRequest, opts?: CallOptions): Promise<TaskResult> {
    return this.#post("v1/agents/run", body, "submission", TaskResultSchema, opts);
  }

  /** POST /v1/agent/async (singular "agent"). */
  runAgentAsync(body: AgentRunRequest, opts?: CallOptions): Promise<TaskIdResponse> {
    return this.#post("v1/agent/async", body, "submission", TaskIdResponseSchema, opts);
  }

  /** POST /v1/agents/async (plural "agents"). */
  agentsAsync(body: AgentRunRequest, opts?: CallOptions): Promise<TaskIdResponse> {
    return this.#post("v1/agents/async", body, "submission", TaskIdResponseSchema, opts);
  }

  agentsBatch(body: AgentBatchRequest, opts?: CallOptions): Promise<BatchSubmission> {
    return this.#post("v1/agents/batch", body, "submission", BatchSubmissionSchema, opts);
  }

  runTemplate(body: TemplateRunRequest, opts?: CallOptions): Promise<TaskResult> {
    return this.#post("v2/extract/templates/run", body, "submission", TaskResultSchema, opts);
  }

  templatesBatch(body: TemplateBatchRequest, opts?: CallOptions): Promise<BatchSubmission> {
    return this.#post("v2/extract/templates/batch", body, "submission", BatchSubmissionSchema, opts);
  }

  listTemplateVersions(name: string, page: PageQuery = {}, opts?: CallOptions): Promise<TemplateVersionList> {
    return this.#get(`v2/extract/templates/${seg(name)}/versions`, TemplateVersionListSchema, opts, {
      ...page,
    });
  }

  // ---------- crawl and map ----------

  crawl(body: CrawlRequest, opts?: CallOptions): Promise<CrawlIdResponse> {
    return this.#post("v1/crawl", body, "submission", CrawlIdResponseSchema, opts);
  }

  getCrawl(crawlId: string, opts?: CallOptions): Promise<CrawlStatus> {
    return this.#get(`v1/crawl/${seg(crawlId)}`, CrawlStatusSchema, opts);
  }

  mapAsync(body: MapRequest, opts?: CallOptions): Promise<TaskIdResponse> {
    return this.#post("v1/map/async", body, "submission", TaskIdResponseSchema, opts);
  }

  // ---------- domain health and knowledge ----------

  /** POST /v1/domain-health/check — read-only, retried like a GET. */
  checkDomainHealth(body: { domains: string[] }, opts?: CallOptions): Promise<DomainHealthResponse> {
    return this.#post("v1/domain-health/check", body, "read", DomainHealthResponseSchema, opts);
  }

  domainDriver(query: { url: string } | { agent: string }, opts?: CallOptions): Promise<DriverKnowledge> {
    return this.#get("v1/domain-knowledge/driver", DriverKnowledgeSchema, opts, { ...query });
  }

  // ---------- jobs ----------

  jobRuns(jobId: string, page: PageQuery = {}, opts?: CallOptions): Promise<JobRunList> {
    return this.#get(`v2/jobs/${seg(jobId)}/runs`, JobRunListSchema, opts, { ...page });
  }

  artifactDownloadUrl(runId: string, artifactId: string, opts?: CallOptions): Promise<ArtifactDownload> {
    const path = `v2/jobs/runs/${seg(runId)}/artifacts/${seg(artifactId)}/download-url`;
    return this.#get(path, ArtifactDownloadSchema, opts);
  }

  // ---------- legacy realtime ----------

  /** POST {legacy_base_url}/api/v1/realtime/social/{platform}/v1/events/{eventId}/details, Basic auth. */
  socialEvent(
    platform: string,
    eventId: string,
    query: { transform?: boolean } = {},
    opts?: CallOptions,
  ): Promise<SocialEventResponse> {
    if (!this.#legacyBase || !this.#basic) {
      const missing = !this.#legacyBase ? "WEBDATA_LEGACY_BASE_URL" : "WEBDATA_LEGACY_AUTH";
      return Promise.reject(
        new ApiError({ code: "invalid_argument", message: `the legacy endpoint needs ${missing} to be set` }),
      );
    }
    const path = `api/v1/realtime/social/${seg(platform)}/v1/events/${seg(eventId)}/details`;
    return this.#executor.call({
      method: "POST",
      url: this.#url(this.#legacyBase, path, { transform: query.transform }),
      authorization: this.#basic,
      kind: "read",
      schema: SocialEventResponseSchema,
      signal: opts?.signal,
    });
  }

  /** Closes the client's own connection pool (a dispatcher passed in options is left open). */
  async close(): Promise<void> {
    if (!this.#ownsDispatcher || this.#closed) return;
    this.#closed = true;
    await this.#dispatcher.close().catch(() => {});
  }
}
