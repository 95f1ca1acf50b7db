/**
 * Zod schemas of the Web Data API's resources, requests and responses, taken from
 * spec/web-data-api.md. The sandbox validates requests with them and builds responses that
 * parse with them; the client validates responses with them.
 *
 * Requests are exact: they strip unknown members, as the service does, and what we send is
 * what the spec documents. Responses are read by need: each declares only the members the
 * product reads, keeps every other member untouched (loose objects), reads `null` as absent
 * (`opt`), takes any string where the spec lists values, and accepts the live service's
 * variant shapes through the `preprocess` steps of normalize.ts.
 */
import { z } from "zod";
import { buildOnce, lazy } from "./lazy-schema.js";
import * as N from "./normalize.js";

const isoTimestamp = z.string();
const anyValue = z.unknown();

/** An optional response member: `null` means absent (it is read as `undefined`). */
const opt = <T extends z.ZodType>(schema: T) =>
  z.optional(z.preprocess((v) => (v === null ? undefined : v), schema.optional()));
/** An optional response member with a value when absent or `null`. */
const optOr = <T extends z.ZodType>(schema: T, fallback: z.output<T>) =>
  z.preprocess((v) => (v == null ? fallback : v), schema);
/** Strings of a response list (other entries dropped). */
/** A list of strings; a `{url, …}` entry (the SDK's map links) counts as its URL, anything else is dropped. */
const stringList = () =>
  z.preprocess(
    (v) =>
      Array.isArray(v)
        ? v.flatMap((x) =>
            typeof x === "string" ? [x] : N.isObj(x) && typeof x.url === "string" ? [x.url] : [],
          )
        : v,
    z.array(z.string()),
  );
/** A string map of a response (null members dropped, other values as text). */
const stringMap = () =>
  z.preprocess(
    (v) =>
      N.isObj(v)
        ? Object.fromEntries(
            Object.entries(v)
              .filter(([, x]) => x != null)
              .map(([k, x]) => [k, typeof x === "string" ? x : JSON.stringify(x)]),
          )
        : v,
    z.record(z.string(), z.string()),
  );
/** A response list: `null` or absent is empty, `null` entries are dropped. */
const listOfItems = <T extends z.ZodType>(item: T) =>
  z.preprocess((v) => (v == null ? [] : N.compact(v)), z.array(item));

// ---------- shared ----------

/** One 422 `detail` entry; read by need: `msg` is what the agent must see, `loc` and `type` may be missing. */
export const ValidationDetailSchema = lazy(() =>
  z.looseObject({
    loc: optOr(z.array(z.union([z.string(), z.number()])), []),
    msg: z.string(),
    type: opt(z.string()),
    ctx: opt(z.record(z.string(), anyValue)),
    input: opt(anyValue),
  }),
);
export type ValidationDetail = z.infer<typeof ValidationDetailSchema>;

export const ValidationErrorBodySchema = lazy(() =>
  z.looseObject({ detail: z.array(ValidationDetailSchema) }),
);

export const RateLimitErrorBodySchema = lazy(() =>
  z.looseObject({
    error: z.looseObject({
      code: z.literal("RATE_LIMIT_EXCEEDED"),
      message: z.string(),
      retry_after: z.number(),
    }),
  }),
);

/** Body of 400/401/402/404/500 errors (not shown in the spec; our choice, see docs/assumptions.md). */
export const GenericErrorBodySchema = lazy(() =>
  z.looseObject({
    error: z.looseObject({ code: z.string(), message: z.string() }),
  }),
);

export const pageQuery = (maxLimit: number, defaultLimit: number) =>
  z.object({
    limit: z.coerce.number().int().min(1).max(maxLimit).default(defaultLimit),
    offset: z.coerce.number().int().min(0).default(0),
  });

export const listOf = <T extends z.ZodType>(item: T) =>
  z.preprocess(
    N.pagedList,
    z.looseObject({
      items: listOfItems(item),
      limit: opt(z.number()),
      offset: opt(z.number()),
      total: opt(z.number()),
    }),
  );

// ---------- tasks ----------

/** The spec's task states; the live service also says `queued` and `in_progress` (async/states.ts). */
export const TASK_STATES = ["pending", "success", "error"] as const;

/** A task record: any member may be `null`; `state` is any string (async/states.ts reads it). */
export const TaskRecordSchema = lazy(() =>
  z.looseObject({
    id: opt(z.string()),
    state: opt(z.string()),
    created_at: opt(isoTimestamp),
    url: opt(z.string()),
    error: opt(z.string()),
    error_type: opt(z.string()),
    status_code: opt(z.number()),
  }),
);
export type TaskRecord = z.infer<typeof TaskRecordSchema>;

export const TaskStatusResponseSchema = lazy(() => z.looseObject({ task: TaskRecordSchema }));

export const TaskDataSchema = lazy(() =>
  z.looseObject({
    html: opt(z.string()),
    markdown: opt(z.string()),
    headers: opt(stringMap()),
    links: opt(stringList()),
    screenshots: opt(z.array(anyValue)),
    parsing: opt(anyValue),
  }),
);

export const TaskResultSchema = lazy(() =>
  z.looseObject({
    url: opt(z.string()),
    task_id: opt(z.string()),
    status: opt(z.string()),
    task: opt(z.looseObject({ id: opt(z.string()), state: opt(z.string()), error: opt(z.string()) })),
    data: optOr(TaskDataSchema, {} as z.output<typeof TaskDataSchema>),
    metadata: opt(z.looseObject({})),
    status_code: opt(z.number()),
    error: opt(z.string()),
    error_type: opt(z.string()),
  }),
);
export type TaskResult = z.infer<typeof TaskResultSchema>;

/** Async submissions: `{task_id}` or `{status, task: {id, state, …}}`; the tools need `task_id`. */
export const TaskIdResponseSchema = lazy(() =>
  z.preprocess(N.taskSubmission, z.looseObject({ task_id: z.string() })),
);

/** `{tasks, next_cursor}` or `{data, pagination: {has_next, next_cursor, total}}`. */
export const TaskListResponseSchema = lazy(() =>
  z.preprocess(
    N.taskList,
    z.looseObject({
      tasks: listOfItems(TaskRecordSchema),
      next_cursor: opt(z.string()),
      total: opt(z.number()),
    }),
  ),
);

// ---------- batches ----------

export const BatchSubmissionSchema = lazy(() =>
  z.preprocess(
    N.batchSubmission,
    z.looseObject({
      batch_id: z.string(),
      batch_size: opt(z.number()),
      tasks: opt(listOfItems(TaskRecordSchema)),
    }),
  ),
);
export type BatchSubmission = z.infer<typeof BatchSubmissionSchema>;

/** Every member may be missing: `total` may give way to `completed_count` and/or `progress`. */
export const BatchProgressSchema = lazy(() =>
  z.looseObject({
    completed_count: opt(z.number()),
    total: opt(z.number()),
    progress: opt(z.number()),
    completed: opt(z.boolean()),
  }),
);
export type BatchProgress = z.infer<typeof BatchProgressSchema>;

/** A task listed in a batch or crawl (`{task_id, status}` entries are read as `{id, state}`). */
export const ListedTaskSchema = lazy(() =>
  z.looseObject({
    id: z.string(),
    state: optOr(z.string(), "unknown"),
    url: opt(z.string()),
    error: opt(z.string()),
  }),
);

export const BatchDetailSchema = lazy(() =>
  z.preprocess(
    N.batchDetail,
    z.looseObject({ batch_id: opt(z.string()), tasks: listOfItems(ListedTaskSchema) }),
  ),
);

export const BatchListResponseSchema = lazy(() =>
  z.looseObject({
    batches: listOfItems(z.looseObject({ batch_id: opt(z.string()), batch_size: opt(z.number()) })),
  }),
);

// ---------- extract ----------

export const EXTRACT_FORMATS = ["html", "markdown", "headers", "links", "screenshot"] as const;
export const ExtractFormatSchema = lazy(() => z.enum(EXTRACT_FORMATS));

const extractRequest = buildOnce(() =>
  z.object({
    url: z.string().url(),
    render: z.boolean().default(false),
    formats: z.array(ExtractFormatSchema).optional(),
    country: z.string().length(2).optional(),
    callback_url: z.string().url().optional(),
  }),
);
export const ExtractRequestSchema = lazy(extractRequest);
export type ExtractRequest = z.input<typeof ExtractRequestSchema>;

// Members of batch items and shared_inputs carry no defaults: an item member left out must not
// override the shared value with a default.
const extractShared = () =>
  extractRequest().omit({ url: true }).extend({ render: z.boolean().optional() }).partial();

export const ExtractBatchRequestSchema = lazy(() => {
  const shared = extractShared();
  return z.object({
    inputs: z
      .array(shared.extend({ url: z.string().url() }))
      .min(1)
      .max(1000),
    shared_inputs: shared.default({}),
  });
});
export type ExtractBatchRequest = z.input<typeof ExtractBatchRequestSchema>;

// ---------- SERP ----------

export const SEARCH_ENGINES = [
  "engine1_search",
  "engine1_sge",
  "engine1_aio",
  "engine1_maps_search",
  "engine1_maps_reviews",
  "engine1_maps_place",
  "engine1_news",
  "engine1_images",
  "engine2_search",
  "engine3_search",
] as const;

export const SERP_STATUSES = [
  "success",
  "skipped",
  "fatal",
  "error",
  "postponed",
  "ignored",
  "rejected",
  "blocked",
] as const;

const serpRequest = buildOnce(() =>
  z.object({
    search_engine: z.enum(SEARCH_ENGINES),
    query: z.string().optional(),
    country: z.string().length(2).optional(),
    device: z.enum(["desktop", "mobile"]).optional(),
    domain: z.string().default("com"),
    locale: z.string().optional(),
    location: z.string().optional(),
    num_results: z.number().int().min(1).max(100).optional(),
    page: z.number().int().min(1).max(Number.MAX_SAFE_INTEGER).optional(),
    parse: z.boolean().default(true),
    render: z.boolean().default(false),
    resolve_url: z.boolean().default(false),
    show_hidden_results: z.boolean().optional(),
  }),
);
export const SerpRequestSchema = lazy(serpRequest);
export type SerpRequest = z.input<typeof SerpRequestSchema>;

/** `POST /v2/serp/async`: the SERP fields plus the async route's callback (§3.5). */
export const SerpAsyncRequestSchema = lazy(() =>
  serpRequest().extend({ callback_url: z.string().url().optional() }),
);
export type SerpAsyncRequest = z.input<typeof SerpAsyncRequestSchema>;

// Batch items and shared_inputs carry no defaults (an item member left out keeps the shared
// value); `search_engine` may sit in either (web-data-api-v2.md §5).
const serpShared = () =>
  serpRequest().extend({
    search_engine: z.enum(SEARCH_ENGINES).optional(),
    domain: z.string().optional(),
    parse: z.boolean().optional(),
    render: z.boolean().optional(),
    resolve_url: z.boolean().optional(),
    callback_url: z.string().url().optional(),
  });

/** POST /v2/serp/batch (generation 1: /v1/serp/batch): up to 1,000 SERP requests. */
export const SerpBatchRequestSchema = lazy(() => {
  const shared = serpShared();
  return z.object({
    inputs: z.array(shared).min(1).max(1000),
    shared_inputs: shared.default({}),
  });
});
export type SerpBatchRequest = z.input<typeof SerpBatchRequestSchema>;

const NextPageSchema = lazy(() => z.looseObject({ next_page_params: opt(z.record(z.string(), anyValue)) }));

/** SERP `data`: every member is kept (new ones too); `parsing.status` is any string. */
export const SerpDataSchema = lazy(() =>
  z.looseObject({
    html: opt(z.string()),
    markdown: opt(z.string()),
    links: opt(stringList()),
    headers: opt(stringMap()),
    parsing: opt(z.looseObject({ status: opt(z.string()), entities: opt(z.record(z.string(), anyValue)) })),
  }),
);

export const SerpResponseSchema = lazy(() =>
  z.looseObject({
    task_id: optOr(z.string(), ""),
    url: opt(z.string()),
    /** One of SERP_STATUSES in the spec; any string is read. */
    status: optOr(z.string(), "unknown"),
    data: optOr(SerpDataSchema, {} as z.output<typeof SerpDataSchema>),
    metadata: optOr(z.looseObject({}), {}),
    pagination: opt(z.union([NextPageSchema, z.array(anyValue)])),
    status_code: opt(z.number()),
    warnings: opt(stringList()),
  }),
);
export type SerpResponse = z.infer<typeof SerpResponseSchema>;

/** One organic result inside `data.parsing.entities.organic` (entity shape not shown; our choice). */
export const SerpOrganicSchema = lazy(() =>
  z.looseObject({
    position: z.number().int(),
    title: z.string(),
    url: z.string(),
    snippet: z.string().optional(),
    displayed_url: z.string().optional(),
  }),
);

// ---------- domain health / knowledge ----------

/** A bare domain: host name only, no scheme, path, port or whitespace. */
export const BareDomainSchema = lazy(() =>
  z
    .string()
    .regex(
      /^(?=.{1,253}$)(?!-)[a-z0-9-]{1,63}(?<!-)(\.(?!-)[a-z0-9-]{1,63}(?<!-))+$/i,
      "must be a bare domain such as example.com, not a URL",
    ),
);

export const DomainHealthRequestSchema = lazy(() =>
  z.object({ domains: z.array(BareDomainSchema).min(1).max(100) }),
);

export const DomainHealthEntrySchema = lazy(() =>
  z.looseObject({
    domain: z.string(),
    status: optOr(z.string(), "unknown"),
    success_rate: opt(z.number()),
    consecutive_bad_windows: opt(z.number()),
    history: opt(
      listOfItems(
        z.looseObject({
          hours_ago: opt(z.number()),
          window_start: opt(z.string()),
          window_end: opt(z.string()),
          status: opt(z.string()),
          success_rate: opt(z.number()),
        }),
      ),
    ),
  }),
);
export const DomainHealthResponseSchema = lazy(() =>
  z.looseObject({ domains: listOfItems(DomainHealthEntrySchema) }),
);

export const DriverKnowledgeSchema = lazy(() =>
  z.preprocess(
    N.driverKnowledge,
    z.looseObject({
      driver: optOr(z.string(), "unknown"),
      antibot_systems: optOr(listOfItems(z.string()), []),
      requires_js_rendering: opt(z.boolean()),
      description: opt(z.string()),
    }),
  ),
);

// ---------- agents ----------

/** The spec's `managed_by` values; the live service may say any string (its operator's name) or null. */
export const MANAGED_BY = ["vendor", "community", "self_managed"] as const;

const agentRecordObject = buildOnce(() =>
  z.looseObject({
    name: z.string(),
    is_public: opt(z.boolean()),
    /** The agent's `name` when missing or null. */
    display_name: z.string(),
    managed_by: opt(z.string()),
    // `.nullable()` only types what the sandbox writes (the spec shows null); `opt` reads null as absent.
    description: opt(z.string().nullable()),
    vertical: opt(z.string().nullable()),
    entity_type: opt(z.string().nullable()),
    domain: opt(z.string().nullable()),
  }),
);
export const AgentRecordSchema = lazy(() => z.preprocess(N.agentRecord, agentRecordObject()));
export type AgentRecord = z.infer<typeof AgentRecordSchema>;

export type OutputFragment = {
  type: "string" | "number" | "boolean" | "array" | "object" | string;
  description?: string;
  format?: string;
  minimum?: number;
  maximum?: number;
  items?: OutputFragment;
  properties?: Record<string, OutputFragment>;
  [k: string]: unknown;
};
export const OutputFragmentSchema: z.ZodType<OutputFragment> = z.lazy(() =>
  z.looseObject({
    type: z.string(),
    description: z.string().optional(),
    format: z.string().optional(),
    minimum: z.number().optional(),
    maximum: z.number().optional(),
    items: OutputFragmentSchema.optional(),
    properties: z.record(z.string(), OutputFragmentSchema).optional(),
  }),
) as z.ZodType<OutputFragment>;

/** An input property as documented (the sandbox checks agent generation requests with it). */
export const InputPropertySchema = lazy(() =>
  z.looseObject({
    name: z.string(),
    required: z.boolean(),
    type: z.string(),
    description: z.string(),
    rules: z.array(z.string()),
    examples: z.array(anyValue).nullable(),
    default: anyValue.nullable(),
    is_localization_param: z.boolean(),
    is_pagination_param: z.boolean(),
  }),
);
export type InputProperty = z.infer<typeof InputPropertySchema>;

/** An input property as read from the service: only `name` is needed, the rest has defaults. */
export const InputPropertyReadSchema = lazy(() =>
  z.looseObject({
    name: z.string(),
    required: optOr(z.boolean(), false),
    type: optOr(z.string(), "string"),
    description: optOr(z.string(), ""),
    rules: optOr(z.array(z.string()), []),
    examples: optOr(z.array(anyValue).nullable(), null),
    default: optOr(anyValue, null),
    is_localization_param: optOr(z.boolean(), false),
    is_pagination_param: optOr(z.boolean(), false),
  }),
);

export const AgentDetailSchema = lazy(() =>
  z.preprocess(
    N.agentRecord,
    agentRecordObject().extend({
      /** A field map, a JSON Schema object (its `properties` are read) or null. */
      // Each fragment is read loosely, as it comes (z.custom checks nothing): typed, not validated.
      output_schema: z.optional(
        z.preprocess(N.outputSchema, z.record(z.string(), z.custom<OutputFragment>()).optional()),
      ),
      input_properties: opt(listOfItems(InputPropertyReadSchema)),
      feature_flags: opt(
        z.looseObject({
          is_localization_supported: opt(z.boolean()),
          is_pagination_supported: opt(z.boolean()),
        }),
      ),
    }),
  ),
);
export type AgentDetail = z.infer<typeof AgentDetailSchema>;

export const AgentListQuerySchema = lazy(() =>
  z.object({
    privacy: z.enum(["public", "private", "all"]).default("all"),
    managed_by: z.enum(["vendor", "community", "self_managed"]).optional(),
    limit: z.coerce.number().int().min(1).max(250).default(100),
    offset: z.coerce.number().int().min(0).default(0),
  }),
);

export const AGENT_FORMATS = ["html", "markdown", "headers"] as const;

const agentRunRequest = buildOnce(() =>
  z.object({
    agent: z.string().min(1),
    params: z.record(z.string(), anyValue).default({}),
    formats: z.array(z.enum(AGENT_FORMATS)).optional(),
  }),
);
export const AgentRunRequestSchema = lazy(agentRunRequest);
export type AgentRunRequest = z.input<typeof AgentRunRequestSchema>;

const agentBatchItem = () =>
  agentRunRequest()
    .extend({ params: z.record(z.string(), anyValue).optional() })
    .partial();

export const AgentBatchRequestSchema = lazy(() => {
  const item = agentBatchItem();
  return z.object({
    inputs: z.array(item).min(1).max(1000),
    shared_inputs: item.default({}),
  });
});

// ---------- templates (v2) ----------

const templateRunRequest = buildOnce(() =>
  z.object({
    template: z.string().min(1),
    params: z.record(z.string(), anyValue).default({}),
    formats: z.array(z.enum(["html", "markdown", "screenshot", "headers", "links"])).optional(),
    localization: z.boolean().optional(),
    /** Generation 2 (§3.5): the async route's callback, beside the template's own params. */
    callback_url: z.string().optional(),
  }),
);
export const TemplateRunRequestSchema = lazy(templateRunRequest);
export type TemplateRunRequest = z.input<typeof TemplateRunRequestSchema>;

export const TemplateBatchRequestSchema = lazy(() =>
  z.object({
    inputs: z
      .array(
        templateRunRequest()
          .omit({ template: true })
          .extend({ params: z.record(z.string(), anyValue).optional() })
          .partial(),
      )
      .min(1)
      .max(1000),
    shared_inputs: templateRunRequest()
      .extend({ params: z.record(z.string(), anyValue).optional() })
      .partial()
      .extend({ template: z.string().min(1) }),
  }),
);

const TemplateMetadataSchema = lazy(() =>
  z.looseObject({
    data_source: opt(z.string()),
    description: opt(z.string()),
    display_name: opt(z.string()),
    domain: opt(z.string()),
    entity_type: opt(z.string()),
    vertical: opt(z.string()),
    tags: opt(z.array(anyValue)),
  }),
);

/** A template version: `version_number` picks it; `metadata` is partial and the rest may be missing. */
export const TemplateVersionSchema = lazy(() =>
  z.looseObject({
    id: opt(z.string()),
    name: optOr(z.string(), ""),
    version_number: z.number(),
    created_at: opt(isoTimestamp),
    input_schema: optOr(z.record(z.string(), anyValue), {}),
    output_schema: optOr(z.record(z.string(), anyValue), {}),
    metadata: optOr(TemplateMetadataSchema, {} as z.output<typeof TemplateMetadataSchema>),
    samples: opt(listOfItems(z.looseObject({ input: opt(anyValue), output: opt(anyValue) }))),
  }),
);
export type TemplateVersion = z.infer<typeof TemplateVersionSchema>;
export const TemplateVersionListSchema = lazy(() => listOf(TemplateVersionSchema));

// ---------- crawl and map ----------

export const CRAWL_EVENTS = ["started", "page", "completed", "failed"] as const;

export const CrawlRequestSchema = lazy(() =>
  z.object({
    url: z.string().url(),
    limit: z.number().int().min(1).max(1000).default(10),
    // The crawl filters of web-data-api-v2.md §8 (generation 1 at SDK 0.20.0 takes the same).
    name: z.string().optional(),
    max_discovery_depth: z.number().int().min(1).max(20).optional(),
    sitemap: z.enum(["skip", "include", "only"]).optional(),
    include_paths: z.array(z.string()).max(100).optional(),
    exclude_paths: z.array(z.string()).max(100).optional(),
    allow_external_links: z.boolean().optional(),
    allow_subdomains: z.boolean().optional(),
    crawl_entire_domain: z.boolean().optional(),
    ignore_query_parameters: z.boolean().optional(),
    callback: z
      .object({
        url: z.string().url(),
        headers: z.record(z.string(), z.string()).optional(),
        metadata: z.record(z.string(), anyValue).optional(),
        events: z.array(z.enum(CRAWL_EVENTS)).optional(),
      })
      .optional(),
  }),
);
export type CrawlRequest = z.input<typeof CrawlRequestSchema>;

export const CrawlIdResponseSchema = lazy(() =>
  z.preprocess(N.crawlSubmission, z.looseObject({ crawl_id: z.string() })),
);

/** The spec's crawl statuses; the live service also says `queued` and `canceled` (final). */
export const CRAWL_STATUSES = ["queued", "running", "succeeded", "failed", "canceled"] as const;

/** `{crawl: {status, completed, total, tasks: [{id, state}]}}` or the flat live shape, read as the first. */
export const CrawlStatusSchema = lazy(() =>
  z.preprocess(
    N.crawlStatus,
    z.looseObject({
      crawl: z.looseObject({
        status: opt(z.string()),
        completed: opt(z.number()),
        total: opt(z.number()),
        tasks: listOfItems(ListedTaskSchema),
        error: opt(z.string()),
      }),
    }),
  ),
);
export type CrawlStatus = z.infer<typeof CrawlStatusSchema>;

export const MapRequestSchema = lazy(() =>
  z.object({
    url: z.string().url(),
    limit: z.number().int().min(1).max(5000).optional(),
    callback_url: z.string().url().optional(),
  }),
);
export type MapRequest = z.input<typeof MapRequestSchema>;

// ---------- jobs ----------

/** Job run statuses seen: PENDING, RUNNING, SUCCESS, FAILED, CANCELLED, TIMEOUT, WARNING; any string is read. */
/** The sync map (`POST /v2/map`, `/v1/map`): `{task_id, success, links: [{url, title, description}]}`. */
export const MapLinkSchema = lazy(() =>
  z.union([
    z.string(),
    z.looseObject({ url: z.string(), title: opt(z.string()), description: opt(z.string()) }),
  ]),
);
export const MapResponseSchema = lazy(() =>
  z.preprocess(
    N.mapAnswer,
    z.looseObject({
      task_id: opt(z.string()),
      success: opt(z.boolean()),
      links: listOfItems(MapLinkSchema),
      error: opt(z.string()),
    }),
  ),
);
export type MapResponse = z.infer<typeof MapResponseSchema>;

export const JobRunSchema = lazy(() =>
  z.looseObject({
    id: z.string(),
    job_id: opt(z.string()),
    created_at: opt(isoTimestamp),
    status: opt(z.string()),
    triggered_by: opt(z.string()),
    started_at: opt(isoTimestamp),
    finished_at: opt(isoTimestamp),
    input_count: opt(z.number()),
    result_count: opt(z.number()),
    artifact_ids: opt(listOfItems(z.string())),
  }),
);
export type JobRun = z.infer<typeof JobRunSchema>;
export const JobRunListSchema = lazy(() => listOf(JobRunSchema));

export const ArtifactDownloadSchema = lazy(() =>
  z.looseObject({ url: z.string(), expires_at: opt(isoTimestamp) }),
);

// ---------- callbacks ----------

export const TaskCallbackBodySchema = lazy(() =>
  z.looseObject({
    task: z.looseObject({
      id: z.string(),
      state: z.string(),
      status_code: z.number().int().optional(),
      created_at: isoTimestamp,
      modified_at: isoTimestamp.optional(),
      input: anyValue.optional(),
      api_type: z.string().optional(),
    }),
  }),
);

// ---------- legacy social event ----------

const PersonSchema = lazy(() =>
  z.looseObject({ id: z.string(), name: z.string(), profile_picture: z.string() }),
);
export const SocialEventResponseSchema = lazy(() =>
  z.looseObject({
    event: z.looseObject({
      id: z.string(),
      name: z.string(),
      url: z.string().optional(),
      description: z.string().optional(),
      privacy: z.string().optional(),
      timezone: z.string().optional(),
      photo: z.string().optional(),
      buy_ticket_url: z.string().optional(),
      start_timestamp: z.number().int().optional(),
      end_timestamp: z.number().int().optional(),
      place: z
        .looseObject({
          id: z.string(),
          name: z.string(),
          location: z.looseObject({ latitude: z.number(), longitude: z.number(), timezone: z.string() }),
        })
        .optional(),
      is_canceled: z.boolean().optional(),
      has_child_events: z.boolean().optional(),
      is_all_day: z.boolean().optional(),
      is_past: z.boolean().optional(),
      is_recurring: z.boolean().nullable().optional(),
      child_events: z.array(anyValue).optional(),
      discovery_categories: z.array(anyValue).optional(),
      faq: z.array(anyValue).optional(),
      creator: PersonSchema.optional(),
      hosts: z.array(PersonSchema).optional(),
      total_going_guests: z.number().int().optional(),
      total_interested_guests: z.number().int().optional(),
    }),
  }),
);
