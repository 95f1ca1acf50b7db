/**
 * WebDataClient: one typed method per documented endpoint of the Web Data Service API.
 * Requests are sent as given (the tools validate arguments); responses are validated with the
 * loose schemas of schemas.ts. Every method rejects only with `ApiError`.
 */

import type { Dispatcher } from "undici";
import { z } from "zod";
import { DEFAULT_MAX_RPS } from "../config.js";
import type {
  AgentBatchRequest,
  AgentListQuery,
  ArtifactDownload,
  BatchDetail,
  BatchListResponse,
  CallOptions,
  CrawlIdResponse,
  DomainHealthResponse,
  DriverKnowledge,
  JobRunList,
  PageQuery,
  SocialEventResponse,
  TaskIdResponse,
  TaskListResponse,
  TaskStatusResponse,
  TemplateBatchRequest,
  TemplateVersionList,
  WebDataClientOptions,
} from "./client-types.js";
import { ApiError } from "./errors.js";
import { type CallSpec, Executor } from "./executor.js";
import { createDispatcher, DEFAULT_TIMEOUTS } from "./http.js";
import { sharedLimiter } from "./rate-limiter.js";
import { Redactor } from "./redact.js";
import { DEFAULT_RETRY, type RequestKind } from "./retry.js";
import * as S from "./schemas.js";

export type * from "./client-types.js";

type Query = Record<string, string | number | boolean | undefined>;

const AgentListSchema = z.array(S.AgentRecordSchema);
const RawObjectSchema = z.record(z.string(), z.unknown());

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

/**
 * One path segment. An id that would change the request's path once resolved (`.`, `..`, or
 * empty after trimming) is refused before anything is sent: `GET /v1/tasks/..` would otherwise
 * reach `GET /v1/` with the key.
 */
function seg(value: string, what = "id"): string {
  const trimmed = typeof value === "string" ? value.trim() : "";
  if (trimmed === "" || trimmed === "." || trimmed === "..") {
    throw new ApiError({
      code: "invalid_argument",
      message: `${JSON.stringify(String(value ?? ""))} is not a usable ${what}: it is empty, "." or "..". Pass the ${what} exactly as the service returned it.`,
    });
  }
  return encodeURIComponent(value);
}

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
      throw new ApiError({ code: "invalid_argument", message: "an API key is required" });
    }
    this.#base = parseBase(options.baseUrl, "the base URL (baseUrl)");
    this.#legacyBase = options.legacyBaseUrl
      ? parseBase(options.legacyBaseUrl, "the legacy base URL (legacyBaseUrl)")
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
      observer: options.observer,
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
    return this.#call({ method: "GET", path, schema, kind: "read", ...opts, query });
  }

  #post<T>(
    path: string,
    body: unknown,
    kind: RequestKind,
    schema: z.ZodType<T>,
    opts?: CallOptions,
  ): Promise<T> {
    return this.#call({ method: "POST", path, body, schema, kind, ...opts });
  }

  #call<T>(req: Omit<CallSpec<T>, "url" | "authorization"> & { path: string; query?: Query }): Promise<T> {
    return this.#executor.call({
      ...req,
      url: this.#url(this.#base, req.path, req.query),
      authorization: this.#bearer,
    });
  }

  // ---------- search and extract ----------

  serp(body: S.SerpRequest, opts?: CallOptions): Promise<S.SerpResponse> {
    return this.#post("v2/serp", body, "submission", S.SerpResponseSchema, opts);
  }

  extract(body: S.ExtractRequest, opts?: CallOptions): Promise<S.TaskResult> {
    return this.#post("v1/extract", body, "submission", S.TaskResultSchema, opts);
  }

  extractAsync(body: S.ExtractRequest, opts?: CallOptions): Promise<TaskIdResponse> {
    return this.#post("v1/extract/async", body, "submission", S.TaskIdResponseSchema, opts);
  }

  extractBatch(body: S.ExtractBatchRequest, opts?: CallOptions): Promise<S.BatchSubmission> {
    return this.#post("v1/extract/batch", body, "submission", S.BatchSubmissionSchema, opts);
  }

  // ---------- tasks and batches ----------

  async getTask(taskId: string, opts?: CallOptions): Promise<TaskStatusResponse> {
    return this.#get(`v1/tasks/${seg(taskId)}`, S.TaskStatusResponseSchema, opts);
  }

  async getTaskResults(taskId: string, opts?: CallOptions): Promise<S.TaskResult> {
    return this.#get(`v1/tasks/${seg(taskId)}/results`, S.TaskResultSchema, opts);
  }

  listTasks(query: { cursor?: string; limit?: number } = {}, opts?: CallOptions): Promise<TaskListResponse> {
    return this.#get("v1/tasks", S.TaskListResponseSchema, opts, query);
  }

  listBatches(opts?: CallOptions): Promise<BatchListResponse> {
    return this.#get("v1/batches", S.BatchListResponseSchema, opts);
  }

  async getBatch(batchId: string, opts?: CallOptions): Promise<BatchDetail> {
    return this.#get(`v1/batches/${seg(batchId)}`, S.BatchDetailSchema, opts);
  }

  async getBatchProgress(batchId: string, opts?: CallOptions): Promise<S.BatchProgress> {
    return this.#get(`v1/batches/${seg(batchId)}/progress`, S.BatchProgressSchema, opts);
  }

  // ---------- agents and templates ----------

  listAgents(query: AgentListQuery = {}, opts?: CallOptions): Promise<S.AgentRecord[]> {
    return this.#get("v1/agents", AgentListSchema, opts, { ...query });
  }

  async getAgent(name: string, opts?: CallOptions): Promise<S.AgentDetail> {
    return this.#get(`v1/agents/${seg(name)}`, S.AgentDetailSchema, opts);
  }

  runAgent(body: S.AgentRunRequest, opts?: CallOptions): Promise<S.TaskResult> {
    return this.#post("v1/agents/run", body, "submission", S.TaskResultSchema, opts);
  }

  /** POST /v1/agent/async (singular "agent"). */
  runAgentAsync(body: S.AgentRunRequest, opts?: CallOptions): Promise<TaskIdResponse> {
    return this.#post("v1/agent/async", body, "submission", S.TaskIdResponseSchema, opts);
  }

  /** POST /v1/agents/async (plural "agents"). */
  agentsAsync(body: S.AgentRunRequest, opts?: CallOptions): Promise<TaskIdResponse> {
    return this.#post("v1/agents/async", body, "submission", S.TaskIdResponseSchema, opts);
  }

  agentsBatch(body: AgentBatchRequest, opts?: CallOptions): Promise<S.BatchSubmission> {
    return this.#post("v1/agents/batch", body, "submission", S.BatchSubmissionSchema, opts);
  }

  runTemplate(body: S.TemplateRunRequest, opts?: CallOptions): Promise<S.TaskResult> {
    return this.#post("v2/extract/templates/run", body, "submission", S.TaskResultSchema, opts);
  }

  templatesBatch(body: TemplateBatchRequest, opts?: CallOptions): Promise<S.BatchSubmission> {
    return this.#post("v2/extract/templates/batch", body, "submission", S.BatchSubmissionSchema, opts);
  }

  async listTemplateVersions(
    name: string,
    page: PageQuery = {},
    opts?: CallOptions,
  ): Promise<TemplateVersionList> {
    return this.#get(`v2/extract/templates/${seg(name)}/versions`, S.TemplateVersionListSchema, opts, {
      ...page,
    });
  }

  // ---------- crawl and map ----------

  crawl(body: S.CrawlRequest, opts?: CallOptions): Promise<CrawlIdResponse> {
    return this.#post("v1/crawl", body, "submission", S.CrawlIdResponseSchema, opts);
  }

  async getCrawl(crawlId: string, opts?: CallOptions): Promise<S.CrawlStatus> {
    return this.#get(`v1/crawl/${seg(crawlId)}`, S.CrawlStatusSchema, opts);
  }

  mapAsync(body: S.MapRequest, opts?: CallOptions): Promise<TaskIdResponse> {
    return this.#post("v1/map/async", body, "submission", S.TaskIdResponseSchema, opts);
  }

  // ---------- domain health and knowledge ----------

  /** POST /v1/domain-health/check — read-only, retried like a GET. */
  checkDomainHealth(body: { domains: string[] }, opts?: CallOptions): Promise<DomainHealthResponse> {
    return this.#post("v1/domain-health/check", body, "read", S.DomainHealthResponseSchema, opts);
  }

  domainDriver(query: { url: string } | { agent: string }, opts?: CallOptions): Promise<DriverKnowledge> {
    return this.#get("v1/domain-knowledge/driver", S.DriverKnowledgeSchema, opts, { ...query });
  }

  // ---------- jobs ----------

  async jobRuns(jobId: string, page: PageQuery = {}, opts?: CallOptions): Promise<JobRunList> {
    return this.#get(`v2/jobs/${seg(jobId)}/runs`, S.JobRunListSchema, opts, { ...page });
  }

  async artifactDownloadUrl(
    runId: string,
    artifactId: string,
    opts?: CallOptions,
  ): Promise<ArtifactDownload> {
    const path = `v2/jobs/runs/${seg(runId)}/artifacts/${seg(artifactId)}/download-url`;
    return this.#get(path, S.ArtifactDownloadSchema, opts);
  }

  // ---------- legacy realtime ----------

  /**
   * POST {legacy_base_url}/api/v1/realtime/social/{platform}/v1/events/{eventId}/details with Basic
   * auth: the transformed record `{event}`. `transform: false` is refused here (the raw record has
   * another shape): use `socialEventRaw`.
   */
  socialEvent(
    platform: string,
    eventId: string,
    query: { transform?: boolean } = {},
    opts?: CallOptions,
  ): Promise<SocialEventResponse> {
    if (query.transform === false) {
      return Promise.reject(
        new ApiError({
          code: "invalid_argument",
          message: "transform=false returns the raw event record, whose shape differs: call socialEventRaw()",
        }),
      );
    }
    return this.#legacy(platform, eventId, true, S.SocialEventResponseSchema, opts);
  }

  /** The same endpoint with `transform=false`: the platform's raw record, any JSON object. */
  socialEventRaw(platform: string, eventId: string, opts?: CallOptions): Promise<Record<string, unknown>> {
    return this.#legacy(platform, eventId, false, RawObjectSchema, opts);
  }

  async #legacy<T>(
    platform: string,
    eventId: string,
    transform: boolean,
    schema: z.ZodType<T>,
    opts?: CallOptions,
  ) {
    if (!this.#legacyBase || !this.#basic) {
      const missing = !this.#legacyBase
        ? "a legacy base URL (legacyBaseUrl)"
        : "a legacy credential (legacyAuth)";
      return Promise.reject(
        new ApiError({ code: "invalid_argument", message: `the legacy endpoint needs ${missing}` }),
      );
    }
    const path = `api/v1/realtime/social/${seg(platform)}/v1/events/${seg(eventId)}/details`;
    return this.#executor.call({
      method: "POST",
      url: this.#url(this.#legacyBase, path, { transform }),
      authorization: this.#basic,
      kind: "read",
      schema,
      ...opts,
    });
  }

  /** Closes the client's own connection pool (a dispatcher passed in options is left open). */
  async close(): Promise<void> {
    if (!this.#ownsDispatcher || this.#closed) return;
    this.#closed = true;
    await this.#dispatcher.close().catch(() => {});
  }
}
