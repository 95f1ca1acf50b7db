/**
 * WebDataClient: one typed method per documented endpoint of the Web Data Service API.
 * Requests are sent as given (the tools validate arguments); responses are validated with the
 * loose schemas of schemas.ts. Every method rejects only with `ApiError`.
 */

import type { Dispatcher } from "undici";
import { z } from "zod";
import { type Clock, realClock } from "../clock.js";
import { ClientRuntime } from "./client-runtime.js";
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
import { downloadFile } from "./download.js";
import { ApiError } from "./errors.js";
import { Executor } from "./executor.js";
import { type Generation, GenerationRouter } from "./generations.js";
import { createDispatcher, DEFAULT_TIMEOUTS } from "./http.js";
import { DEFAULT_MAX_RPS } from "./options.js";
import { fleetThrottle } from "./rate-limiter.js";
import { Redactor } from "./redact.js";
import { DEFAULT_RETRY } from "./retry.js";
import { chainHooks, type RouteCall, type RouteHook, type RouteInput } from "./route-hook.js";
import { ROUTES, type Route, type RouteName, type RouteSide } from "./routes.js";
import * as S from "./schemas.js";
import * as V from "./schemas-v2.js";
import { type ServerEvent, streamEvents } from "./sse.js";
import { valuesAt, type WorkRule } from "./work.js";

export type * from "./client-types.js";

type Query = Record<string, string | number | boolean | undefined>;

const AgentListSchema = z.array(S.AgentRecordSchema);
const RawObjectSchema = z.record(z.string(), z.unknown());
/** Answers whose body nothing reads (deletes: no body typed). */
const AnyAnswer = z.unknown();
type Patch = V.JsonPatch;
type Obj = Record<string, unknown>;

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

/** A route's path with its `{name}` placeholders filled, each value one checked path segment. */
function fillPath(path: string, params: Record<string, string> = {}): string {
  return path.replace(/\{(\w+)\}/g, (_, name: string) => seg(params[name] ?? ""));
}

/** The ids an answer hands out (remembered with their generation), template names aside. */
function mintedIds(work: WorkRule, answer: unknown): string[] {
  return (work.mints ?? []).flatMap((m) => (m.kind === "template" ? [] : valuesAt(answer, m.at)));
}

/** The error of a generation-2-only capability on a service that seems to speak generation 1 only. */
function noGenerationOne(name: string, route: Route, error: unknown): ApiError {
  const e = error as ApiError;
  return new ApiError({
    code: e.code,
    status: e.status,
    message:
      `${route.method} /${route[2]?.path} answered ${e.status} (${e.message}). This service lacks other ` +
      `generation-2 routes too, and ${name} has no generation-1 route: it needs a service with API generation 2.`,
    cause: error,
  });
}

/**
 * What a client and the clients derived from it share: the service's addresses, the credentials,
 * the connection pool, the executor (with its rate limiter) and the generation memory.
 */
interface Connection {
  base: URL;
  legacyBase: URL | undefined;
  bearer: string;
  basic: string | undefined;
  dispatcher: Dispatcher;
  executor: Executor;
  generations: GenerationRouter;
  clock: Clock;
  runtime: ClientRuntime;
}

/** A client's connection from its options (a runtime of its own unless one is given). */
function connect(options: WebDataClientOptions): Connection {
  const runtime = options.runtime ?? new ClientRuntime();
  if (!options.apiKey) {
    throw new ApiError({ code: "invalid_argument", message: "an API key is required" });
  }
  const base = parseBase(options.baseUrl, "the base URL (baseUrl)");
  const legacyBase = options.legacyBaseUrl
    ? parseBase(options.legacyBaseUrl, "the legacy base URL (legacyBaseUrl)")
    : undefined;
  const { bearer, basic, redactor } = credentials(options.apiKey, options.legacyAuth);
  const clock = options.clock ?? realClock;
  const dispatcher =
    options.dispatcher ?? createDispatcher({ ...DEFAULT_TIMEOUTS, ...options.timeouts }, options.proxy);
  const generations = new GenerationRouter(
    options.generation ?? "auto",
    runtime.generations.for(base.href),
    options.log ?? ((message) => process.stderr.write(`${message}\n`)),
  );
  const limiter = runtime.limiters.sharedLimiter(
    options.apiKey,
    base.origin,
    options.maxRps ?? DEFAULT_MAX_RPS,
    clock,
  );
  const executor = new Executor({
    dispatcher,
    limiter: options.sharedRateStore ? fleetThrottle(limiter, options.sharedRateStore) : limiter,
    redactor,
    retry: {
      ...DEFAULT_RETRY,
      maxAttempts: Math.max(1, options.maxAttempts ?? DEFAULT_RETRY.maxAttempts),
      deadlineMs: options.retryDeadlineMs ?? DEFAULT_RETRY.deadlineMs,
    },
    userAgent: options.userAgent ?? "web-data-mcp/0.1.0",
    observer: options.observer,
    clock,
  });
  return { base, legacyBase, bearer, basic, dispatcher, executor, generations, clock, runtime };
}

/** The authorization headers (Bearer, and Basic for generation 1) and a redactor of every form of them. */
function credentials(apiKey: string, legacyAuth: string | undefined) {
  const redactor = new Redactor([apiKey, legacyAuth]);
  if (!legacyAuth) return { bearer: `Bearer ${apiKey}`, basic: undefined, redactor };
  const encoded = Buffer.from(legacyAuth, "utf8").toString("base64");
  redactor.add(encoded);
  return { bearer: `Bearer ${apiKey}`, basic: `Basic ${encoded}`, redactor };
}

export class WebDataClient {
  readonly #conn: Connection;
  readonly #ownsDispatcher: boolean;
  readonly #hook: RouteHook | undefined;
  readonly #lane: string | undefined;
  #closed = false;
  /** The time of this client's retries and of the waits on its work (`waitFor`). */
  readonly clock: Clock;

  /** The state this client shares with the clients given the same runtime (limiters, generation memory). */
  readonly runtime: ClientRuntime;

  /**
   * A client of `options`; or, given a client, one sharing its connections, rate limiter and
   * generation memory with `derived.hook` around every route call too (`withHook`) or its calls
   * in `derived.lane` (`inLane`).
   */
  constructor(
    given: WebDataClientOptions | WebDataClient,
    derived: { hook?: RouteHook; lane?: string } = {},
  ) {
    if (given instanceof WebDataClient) {
      this.#conn = given.#conn;
      this.#ownsDispatcher = false;
      this.#hook = chainHooks(given.#hook, derived.hook);
      this.#lane = derived.lane ?? given.#lane;
    } else {
      this.#conn = connect(given);
      this.#ownsDispatcher = given.dispatcher === undefined;
      this.#hook = derived.hook;
      this.#lane = given.lane;
    }
    this.clock = this.#conn.clock;
    this.runtime = this.#conn.runtime;
  }

  /** This client with `hook` around every route call (outside the hooks it has). */
  withHook(hook: RouteHook): WebDataClient {
    return new WebDataClient(this, { hook });
  }

  /**
   * This client with every call waiting in `lane`'s own queue of the rate limiter (the HTTP
   * server's lane per principal: slots go round-robin between lanes). It shares this client's
   * pool, rate limiter, generation memory and hooks; closing it closes nothing of them.
   */
  inLane(lane: string): WebDataClient {
    if (lane === this.#lane) return this;
    return new WebDataClient(this, { lane });
  }

  // ---------- plumbing ----------

  #url(base: URL, path: string, query?: Query): URL {
    const url = new URL(path, base);
    for (const [name, value] of Object.entries(query ?? {})) {
      if (value !== undefined) url.searchParams.set(name, String(value));
    }
    return url;
  }

  /**
   * One call through the route table (routes.ts): the generations to try come from the router
   * (generations.ts); a 404/405 on the first may fall back to the other once, in `auto`.
   */
  async #route<T>(
    name: RouteName,
    schema: z.ZodType<T>,
    input: RouteInput = {},
    opts?: CallOptions,
  ): Promise<T> {
    const route: Route = ROUTES[name];
    if (route.generation2Only && this.#conn.generations.setting === 1) {
      throw new ApiError({
        code: "unsupported",
        message: `${route.method} /${route[2]?.path} has no generation-1 counterpart, and generation 1 is configured`,
      });
    }
    const send = (call: RouteCall) => {
      const id = route.by === undefined ? undefined : call.input.params?.[route.by];
      return this.#conn.generations.run(name, route, id, (order) =>
        this.#send(name, route, order, id, schema, call.input, opts),
      );
    };
    if (!this.#hook) return send({ name, route, input });
    return this.#hook({ name, route, input }, send) as Promise<T>;
  }

  async #send<T>(
    name: RouteName,
    route: Route,
    order: Generation[],
    id: string | undefined,
    schema: z.ZodType<T>,
    input: RouteInput,
    opts?: CallOptions,
  ): Promise<T> {
    if (order.length === 0) throw new ApiError({ code: "invalid_argument", message: `no route for ${name}` });
    const gone = route[1] === undefined ? this.#conn.generations.gone(name) : undefined;
    if (gone) throw gone;
    let first: unknown;
    for (const [index, generation] of order.entries()) {
      const side = route[generation] as RouteSide;
      try {
        const answer = await this.#conn.executor.call({
          method: route.method,
          url: this.#url(
            this.#conn.base,
            fillPath(side.path, input.params),
            side.query && input.query ? side.query(input.query) : input.query,
          ),
          authorization: this.#conn.bearer,
          kind: route.kind,
          body: input.body === undefined ? undefined : side.body ? side.body(input.body) : input.body,
          schema: side.read ? z.preprocess(side.read, schema) : schema,
          ...opts,
          lane: opts?.lane ?? this.#lane,
        });
        this.#conn.generations.answered(name, route, generation, id, index > 0);
        if (route.work !== "none") this.#conn.generations.remember(mintedIds(route.work, answer), generation);
        return answer;
      } catch (error) {
        const status = error instanceof ApiError ? error.status : undefined;
        if (this.#generationTwoOnly(route, generation, status))
          throw this.#conn.generations.gone(name, noGenerationOne(name, route, error));
        if (!this.#conn.generations.mayFallBack(status, index, order)) {
          throw first !== undefined && (status === 404 || status === 405) ? first : error;
        }
        first = error;
      }
    }
    throw first;
  }

  /** A 404/405 of a route only generation 2 has, from a service that lacks other generation-2 routes. */
  #generationTwoOnly(route: Route, generation: Generation, status: number | undefined): boolean {
    return (
      (status === 404 || status === 405) &&
      generation === 2 &&
      route[1] === undefined &&
      this.#conn.generations.setting !== 2 &&
      this.#conn.generations.lacksGeneration2()
    );
  }

  /** Whether this service answered 404/405 on a generation-2 route that generation 1 has (auto). */
  lacksGeneration2(): boolean {
    return this.#conn.generations.lacksGeneration2();
  }

  /** The generation an id was made on, if this process remembers it (undefined: not known). */
  generationOf(id: string): Generation | undefined {
    return this.#conn.generations.generationOf(id);
  }

  // ---------- search and extract ----------

  serp(body: S.SerpRequest, opts?: CallOptions): Promise<S.SerpResponse> {
    return this.#route("serp", S.SerpResponseSchema, { body }, opts);
  }

  fastSerp(body: S.SerpRequest, opts?: CallOptions): Promise<S.SerpResponse> {
    return this.#route("fastSerp", S.SerpResponseSchema, { body }, opts);
  }

  serpBatch(body: S.SerpBatchRequest, opts?: CallOptions): Promise<S.BatchSubmission> {
    return this.#route("serpBatch", S.BatchSubmissionSchema, { body }, opts);
  }

  /** POST /v2/serp/async (generation 1: /v1/serp/async): a task whose result is the SERP answer. */
  serpAsync(body: S.SerpAsyncRequest, opts?: CallOptions): Promise<TaskIdResponse> {
    return this.#route("serpAsync", S.TaskIdResponseSchema, { body }, opts);
  }

  extract(body: S.ExtractRequest, opts?: CallOptions): Promise<S.TaskResult> {
    return this.#route("extract", S.TaskResultSchema, { body }, opts);
  }

  extractAsync(body: S.ExtractRequest, opts?: CallOptions): Promise<TaskIdResponse> {
    return this.#route("extractAsync", S.TaskIdResponseSchema, { body }, opts);
  }

  extractBatch(body: S.ExtractBatchRequest, opts?: CallOptions): Promise<S.BatchSubmission> {
    return this.#route("extractBatch", S.BatchSubmissionSchema, { body }, opts);
  }

  // ---------- tasks and batches ----------

  async getTask(taskId: string, opts?: CallOptions): Promise<TaskStatusResponse> {
    return this.#route("getTask", S.TaskStatusResponseSchema, { params: { id: taskId } }, opts);
  }

  async getTaskResults(taskId: string, opts?: CallOptions): Promise<S.TaskResult> {
    return this.#route("getTaskResults", S.TaskResultSchema, { params: { id: taskId } }, opts);
  }

  listTasks(query: { cursor?: string; limit?: number } = {}, opts?: CallOptions): Promise<TaskListResponse> {
    return this.#route("listTasks", S.TaskListResponseSchema, { query }, opts);
  }

  listBatches(opts?: CallOptions): Promise<BatchListResponse> {
    return this.#route("listBatches", S.BatchListResponseSchema, {}, opts);
  }

  async getBatch(batchId: string, opts?: CallOptions): Promise<BatchDetail> {
    return this.#route("getBatch", S.BatchDetailSchema, { params: { id: batchId } }, opts);
  }

  async getBatchProgress(batchId: string, opts?: CallOptions): Promise<S.BatchProgress> {
    return this.#route("getBatchProgress", S.BatchProgressSchema, { params: { id: batchId } }, opts);
  }

  // ---------- agents and templates ----------

  listAgents(query: AgentListQuery = {}, opts?: CallOptions): Promise<S.AgentRecord[]> {
    return this.#route("listAgents", AgentListSchema, { query: { ...query } }, opts);
  }

  async getAgent(name: string, opts?: CallOptions): Promise<S.AgentDetail> {
    return this.#route("getAgent", S.AgentDetailSchema, { params: { name } }, opts);
  }

  runAgent(body: S.AgentRunRequest, opts?: CallOptions): Promise<S.TaskResult> {
    return this.#route("runAgent", S.TaskResultSchema, { body }, opts);
  }

  /** POST /v1/agent/async (singular "agent"). */
  runAgentAsync(body: S.AgentRunRequest, opts?: CallOptions): Promise<TaskIdResponse> {
    return this.#route("runAgentAsync", S.TaskIdResponseSchema, { body }, opts);
  }

  /** POST /v1/agents/async (plural "agents"). */
  agentsAsync(body: S.AgentRunRequest, opts?: CallOptions): Promise<TaskIdResponse> {
    return this.#route("agentsAsync", S.TaskIdResponseSchema, { body }, opts);
  }

  agentsBatch(body: AgentBatchRequest, opts?: CallOptions): Promise<S.BatchSubmission> {
    return this.#route("agentsBatch", S.BatchSubmissionSchema, { body }, opts);
  }

  runTemplate(body: S.TemplateRunRequest, opts?: CallOptions): Promise<S.TaskResult> {
    return this.#route("runTemplate", S.TaskResultSchema, { body }, opts);
  }

  templatesBatch(body: TemplateBatchRequest, opts?: CallOptions): Promise<S.BatchSubmission> {
    return this.#route("templatesBatch", S.BatchSubmissionSchema, { body }, opts);
  }

  async listTemplateVersions(
    name: string,
    page: PageQuery = {},
    opts?: CallOptions,
  ): Promise<TemplateVersionList> {
    const input = { params: { name }, query: { ...page } };
    return this.#route("listTemplateVersions", S.TemplateVersionListSchema, input, opts);
  }

  // ---------- crawl and map ----------

  crawl(body: S.CrawlRequest, opts?: CallOptions): Promise<CrawlIdResponse> {
    return this.#route("crawl", S.CrawlIdResponseSchema, { body }, opts);
  }

  async getCrawl(crawlId: string, opts?: CallOptions): Promise<S.CrawlStatus> {
    return this.#route("getCrawl", S.CrawlStatusSchema, { params: { id: crawlId } }, opts);
  }

  /** The sync map (`POST /v2/map`, or the SDK's `POST /v1/map`): the links inline. */
  map(body: S.MapRequest, opts?: CallOptions): Promise<S.MapResponse> {
    return this.#route("map", S.MapResponseSchema, { body }, opts);
  }

  mapAsync(body: S.MapRequest, opts?: CallOptions): Promise<TaskIdResponse> {
    return this.#route("mapAsync", S.TaskIdResponseSchema, { body }, opts);
  }

  // ---------- domain health and knowledge ----------

  /** POST /v1/domain-health/check — read-only, retried like a GET. */
  checkDomainHealth(body: { domains: string[] }, opts?: CallOptions): Promise<DomainHealthResponse> {
    return this.#route("checkDomainHealth", S.DomainHealthResponseSchema, { body }, opts);
  }

  domainDriver(query: { url: string } | { agent: string }, opts?: CallOptions): Promise<DriverKnowledge> {
    return this.#route("domainDriver", S.DriverKnowledgeSchema, { query: { ...query } }, opts);
  }

  // ---------- jobs ----------

  async jobRuns(jobId: string, page: PageQuery = {}, opts?: CallOptions): Promise<JobRunList> {
    return this.#route("jobRuns", S.JobRunListSchema, { params: { job: jobId }, query: { ...page } }, opts);
  }

  async artifactDownloadUrl(
    runId: string,
    artifactId: string,
    opts?: CallOptions,
  ): Promise<ArtifactDownload> {
    const params = { run: runId, artifact: artifactId };
    return this.#route("artifactDownloadUrl", S.ArtifactDownloadSchema, { params }, opts);
  }

  // ---------- generation-2 capabilities (§4, §8, §12–15; generation 1 §18) ----------

  /** POST /v2/search (generation 1: /v1/search): results with content, and an answer with citations. */
  search(body: V.SearchRequest, opts?: CallOptions): Promise<V.SearchResponse> {
    return this.#route("search", V.SearchResponseSchema, { body }, opts);
  }

  /** Creates a generation: `{prompt, url, …}` or a refinement `{from_agent, prompt}` (generation-1 name). */
  createGeneration(body: Obj, opts?: CallOptions): Promise<V.GenerationRecord> {
    return this.#route("createGeneration", V.GenerationRecordSchema, { body }, opts);
  }

  getGeneration(id: string, opts?: CallOptions): Promise<V.GenerationRecord> {
    return this.#route("getGeneration", V.GenerationRecordSchema, { params: { id } }, opts);
  }

  getTemplate(name: string, opts?: CallOptions) {
    return this.#route("getTemplate", V.TemplateRecordSchema, { params: { name } }, opts);
  }

  updateTemplate(name: string, patch: Patch, opts?: CallOptions) {
    return this.#route("updateTemplate", V.TemplateRecordSchema, { params: { name }, body: patch }, opts);
  }

  deleteTemplate(name: string, opts?: CallOptions): Promise<unknown> {
    return this.#route("deleteTemplate", AnyAnswer, { params: { name } }, opts);
  }

  listResearchAgents(page: PageQuery = {}, opts?: CallOptions) {
    return this.#route("listResearchAgents", V.ResearchAgentPageSchema, { query: { ...page } }, opts);
  }

  listAgentTemplates(page: PageQuery = {}, opts?: CallOptions) {
    return this.#route("listAgentTemplates", V.ResearchAgentPageSchema, { query: { ...page } }, opts);
  }

  getResearchAgent(agent: string, opts?: CallOptions) {
    return this.#route("getResearchAgent", V.ResearchAgentSchema, { params: { agent } }, opts);
  }

  /** Takes generation-1 names (`domain_expertise`); generation 2 sends `skill`. */
  createResearchAgent(body: Obj, opts?: CallOptions) {
    return this.#route("createResearchAgent", V.ResearchAgentSchema, { body }, opts);
  }

  updateResearchAgent(agent: string, patch: Patch, opts?: CallOptions) {
    return this.#route(
      "updateResearchAgent",
      V.ResearchAgentSchema,
      { params: { agent }, body: patch },
      opts,
    );
  }

  deleteResearchAgent(agent: string, opts?: CallOptions): Promise<unknown> {
    return this.#route("deleteResearchAgent", AnyAnswer, { params: { agent } }, opts);
  }

  startResearchRun(agent: string, body: V.ResearchRunRequest, opts?: CallOptions): Promise<V.ResearchRun> {
    return this.#route("startResearchRun", V.ResearchRunSchema, { params: { agent }, body }, opts);
  }

  /** POST /v2/agents/runs: one run of a new agent, or of the agent named `agent_name` (generation 2 only). */
  startOneShotResearch(body: V.ResearchRunRequest, opts?: CallOptions): Promise<V.ResearchRun> {
    return this.#route("startOneShotResearch", V.ResearchRunSchema, { body }, opts);
  }

  getResearchRun(agent: string, run: string, opts?: CallOptions): Promise<V.ResearchRun> {
    return this.#route("getResearchRun", V.ResearchRunSchema, { params: { agent, run } }, opts);
  }

  /** The run's result; rejects with status 409 (generation 1: 408) while the run is active. */
  getResearchResult(agent: string, run: string, opts?: CallOptions): Promise<V.ResearchResult> {
    return this.#route("getResearchResult", V.ResearchResultSchema, { params: { agent, run } }, opts);
  }

  /** The run's server-sent events as they come (only for runs created with `enable_events`); through the hook like a route call. */
  async *researchEvents(agent: string, run: string, signal: AbortSignal): AsyncGenerator<ServerEvent> {
    const open = async () => {
      const generation =
        this.#conn.generations.generationOf(agent) ?? (this.#conn.generations.setting === 1 ? 1 : 2);
      const path = fillPath((ROUTES.researchEvents[generation] as RouteSide).path, { agent, run });
      return streamEvents(this.#conn.dispatcher, this.#url(this.#conn.base, path), this.#conn.bearer, signal);
    };
    const call: RouteCall = {
      name: "researchEvents",
      route: ROUTES.researchEvents,
      input: { params: { agent, run } },
    };
    yield* (this.#hook ? await this.#hook(call, open) : await open()) as AsyncGenerator<ServerEvent>;
  }

  listCrawls(query: { status?: string; cursor?: string; limit?: number } = {}, opts?: CallOptions) {
    return this.#route("listCrawls", V.CrawlListSchema, { query: { ...query } }, opts);
  }

  cancelCrawl(id: string, opts?: CallOptions) {
    return this.#route("cancelCrawl", V.CrawlCancelSchema, { params: { id } }, opts);
  }

  listJobs(page: PageQuery = {}, opts?: CallOptions) {
    return this.#route("listJobs", V.JobPageSchema, { query: { ...page } }, opts);
  }

  /** Takes the generation-1 `agent_name`; generation 2 sends `extract_template_name`. */
  createJob(body: Obj, opts?: CallOptions) {
    return this.#route("createJob", V.JobSchema, { body }, opts);
  }

  updateJob(job: string, body: V.JobUpdate, opts?: CallOptions) {
    return this.#route("updateJob", V.JobSchema, { params: { job }, body }, opts);
  }

  deleteJob(job: string, opts?: CallOptions): Promise<unknown> {
    return this.#route("deleteJob", AnyAnswer, { params: { job } }, opts);
  }

  triggerJob(job: string, opts?: CallOptions) {
    return this.#route("triggerJob", V.JobRunSummarySchema, { params: { job }, body: {} }, opts);
  }

  /** A run's detail; `job` is needed on generation 1 only (its run routes nest under the job). */
  getJobRun(run: string, job = "-", opts?: CallOptions) {
    return this.#route("getJobRun", V.JobRunSummarySchema, { params: { run, job } }, opts);
  }

  cancelJobRun(run: string, job = "-", opts?: CallOptions) {
    return this.#route("cancelJobRun", V.RunCancelSchema, { params: { run, job }, body: {} }, opts);
  }

  listArtifacts(run: string, job = "-", opts?: CallOptions) {
    return this.#route("listArtifacts", V.ArtifactListSchema, { params: { run, job } }, opts);
  }

  artifactPreview(run: string, artifact: string, job = "-", opts?: CallOptions) {
    return this.#route("artifactPreview", V.ArtifactPreviewSchema, { params: { run, artifact, job } }, opts);
  }

  /** POST /v2/media/async (generation 1: /v1/media/async): a task whose result names the file. */
  mediaAsync(body: Obj, opts?: CallOptions): Promise<TaskIdResponse> {
    return this.#route("mediaAsync", S.TaskIdResponseSchema, { body }, opts);
  }

  /**
   * GET of a pre-signed download URL the API handed out: no credential is sent (it is another
   * host's URL), at most `maxBytes` are read (`truncated` says the file is longer).
   */
  download(url: string, maxBytes: number, opts?: CallOptions) {
    return downloadFile(this.#conn.dispatcher, url, maxBytes, opts);
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
    if (!this.#conn.legacyBase || !this.#conn.basic) {
      const missing = !this.#conn.legacyBase
        ? "a legacy base URL (legacyBaseUrl)"
        : "a legacy credential (legacyAuth)";
      return Promise.reject(
        new ApiError({ code: "invalid_argument", message: `the legacy endpoint needs ${missing}` }),
      );
    }
    const path = `api/v1/realtime/social/${seg(platform)}/v1/events/${seg(eventId)}/details`;
    return this.#conn.executor.call({
      method: "POST",
      url: this.#url(this.#conn.legacyBase, path, { transform }),
      authorization: this.#conn.basic,
      kind: "read",
      schema,
      ...opts,
    });
  }

  /** Closes the client's own connection pool (a dispatcher passed in options is left open). */
  async close(): Promise<void> {
    if (!this.#ownsDispatcher || this.#closed) return;
    this.#closed = true;
    await this.#conn.dispatcher.close().catch(() => {});
  }
}
