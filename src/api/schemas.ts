/**
 * Zod schemas of the Web Data API's resources, requests and responses, taken from
 * spec/web-data-api.md. The sandbox validates requests with them and builds responses that
 * parse with them; the client validates responses with them. Response schemas are loose
 * (unknown members are kept); request schemas strip unknown members, as the service does.
 */
import { z } from "zod";

const isoTimestamp = z.string();
const anyValue = z.unknown();

// ---------- shared ----------

export const ValidationDetailSchema = z.looseObject({
  loc: z.array(z.union([z.string(), z.number()])),
  msg: z.string(),
  type: z.string(),
  ctx: z.record(z.string(), anyValue).optional(),
  input: anyValue.optional(),
});
export type ValidationDetail = z.infer<typeof ValidationDetailSchema>;

export const ValidationErrorBodySchema = z.looseObject({ detail: z.array(ValidationDetailSchema) });

export const RateLimitErrorBodySchema = z.looseObject({
  error: z.looseObject({
    code: z.literal("RATE_LIMIT_EXCEEDED"),
    message: z.string(),
    retry_after: z.number(),
  }),
});

/** Body of 400/401/402/404/500 errors (not shown in the spec; our choice, see README Assumptions). */
export const GenericErrorBodySchema = z.looseObject({
  error: z.looseObject({ code: z.string(), message: z.string() }),
});

export const pageQuery = (maxLimit: number, defaultLimit: number) =>
  z.object({
    limit: z.coerce.number().int().min(1).max(maxLimit).default(defaultLimit),
    offset: z.coerce.number().int().min(0).default(0),
  });

export const listOf = <T extends z.ZodType>(item: T) =>
  z.looseObject({
    items: z.array(item),
    limit: z.number().int(),
    offset: z.number().int(),
    total: z.number().int(),
  });

// ---------- tasks ----------

export const TASK_STATES = ["pending", "success", "error"] as const;

export const TaskRecordSchema = z.looseObject({
  id: z.string(),
  state: z.string(),
  created_at: isoTimestamp,
  modified_at: isoTimestamp.optional(),
  input: anyValue.optional(),
  _query: anyValue.optional(),
  status_url: z.string().optional(),
  download_url: z.string().optional(),
  output_url: z.string().optional(),
  account_name: z.string().optional(),
  api_type: z.string().optional(),
  batch_id: z.string().optional(),
  error: z.string().optional(),
  error_type: z.string().optional(),
  queue: z.string().optional(),
  status_code: z.number().int().optional(),
});
export type TaskRecord = z.infer<typeof TaskRecordSchema>;

export const TaskStatusResponseSchema = z.looseObject({ task: TaskRecordSchema });

export const TaskDataSchema = z.looseObject({
  html: z.string().optional(),
  markdown: z.string().optional(),
  headers: z.record(z.string(), z.string()).optional(),
  links: z.array(z.string()).optional(),
  screenshots: z.array(anyValue).optional(),
  parsing: anyValue.optional(),
});

export const TaskResultSchema = z.looseObject({
  url: z.string(),
  task_id: z.string(),
  status: z.string(),
  task: z
    .looseObject({
      id: z.string(),
      state: z.string(),
      created_at: isoTimestamp.optional(),
      modified_at: isoTimestamp.optional(),
      account_name: z.string().optional(),
    })
    .optional(),
  data: TaskDataSchema,
  metadata: z
    .looseObject({
      query_time: z.string().optional(),
      query_duration: z.number().optional(),
      response_parameters: anyValue.optional(),
      driver: z.string().optional(),
    })
    .optional(),
  status_code: z.number().int().optional(),
});
export type TaskResult = z.infer<typeof TaskResultSchema>;

export const TaskIdResponseSchema = z.looseObject({ task_id: z.string() });

export const TaskListResponseSchema = z.looseObject({
  tasks: z.array(TaskRecordSchema),
  next_cursor: z.string().nullable().optional(),
});

// ---------- batches ----------

export const BatchSubmissionSchema = z.looseObject({
  batch_id: z.string(),
  batch_size: z.number().int(),
  tasks: z.array(TaskRecordSchema).optional(),
});
export type BatchSubmission = z.infer<typeof BatchSubmissionSchema>;

export const BatchProgressSchema = z.looseObject({
  completed_count: z.number().int(),
  total: z.number().int(),
  progress: z.number(),
  completed: z.boolean(),
});
export type BatchProgress = z.infer<typeof BatchProgressSchema>;

export const BatchDetailSchema = z.looseObject({
  batch_id: z.string().optional(),
  tasks: z.array(z.looseObject({ id: z.string(), state: z.string() })),
});

export const BatchListResponseSchema = z.looseObject({
  batches: z.array(z.looseObject({ batch_id: z.string(), batch_size: z.number().int().optional() })),
});

// ---------- extract ----------

export const EXTRACT_FORMATS = ["html", "markdown", "headers", "links", "screenshot"] as const;
export const ExtractFormatSchema = z.enum(EXTRACT_FORMATS);

export const ExtractRequestSchema = z.object({
  url: z.string().url(),
  render: z.boolean().default(false),
  formats: z.array(ExtractFormatSchema).optional(),
  country: z.string().length(2).optional(),
  callback_url: z.string().url().optional(),
});
export type ExtractRequest = z.input<typeof ExtractRequestSchema>;

// Members of batch items and shared_inputs carry no defaults: an item member left out must not
// override the shared value with a default.
const ExtractSharedSchema = ExtractRequestSchema.omit({ url: true })
  .extend({ render: z.boolean().optional() })
  .partial();

export const ExtractBatchRequestSchema = z.object({
  inputs: z
    .array(ExtractSharedSchema.extend({ url: z.string().url() }))
    .min(1)
    .max(1000),
  shared_inputs: ExtractSharedSchema.default({}),
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

export const SerpRequestSchema = z.object({
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
});
export type SerpRequest = z.input<typeof SerpRequestSchema>;

const NextPageSchema = z.looseObject({ next_page_params: z.record(z.string(), anyValue) });

export const SerpDataSchema = z.object({
  html: z.string().optional(),
  markdown: z.string().optional(),
  links: z.array(z.string()).optional(),
  headers: z.record(z.string(), z.string()).optional(),
  parsing: z
    .union([
      z.looseObject({ status: z.literal("success"), entities: z.record(z.string(), anyValue) }),
      z.looseObject({ status: z.literal("error"), error: z.string() }),
      z.record(z.string(), anyValue),
    ])
    .optional(),
  redirects: z.array(z.object({ status_code: z.number().min(100).max(599), url: z.string() })).optional(),
  pages_html: z.array(z.string()).optional(),
  screenshots: z.array(anyValue).optional(),
  cookies: z.array(anyValue).optional(),
  eval: z.array(anyValue).optional(),
  fetch: z.array(anyValue).optional(),
  browser_actions: z
    .looseObject({ success: z.boolean(), results: z.array(anyValue), total_duration: z.number().min(0) })
    .optional(),
  network_capture: z.array(anyValue).optional(),
});

export const SerpResponseSchema = z.looseObject({
  task_id: z.string(),
  url: z.string(),
  status: z.enum(SERP_STATUSES),
  data: SerpDataSchema,
  metadata: z.looseObject({
    agent: z.string().optional(),
    driver: z.string().optional(),
    localization_id: z.string().optional(),
    query_duration: z.number().optional(),
    query_time: z.string().optional(),
    response_parameters: anyValue.optional(),
    tag: z.string().optional(),
  }),
  debug: z.looseObject({}).optional(),
  pagination: z.union([NextPageSchema, z.array(NextPageSchema)]).optional(),
  status_code: z.number().optional(),
  warnings: z.array(z.string()).optional(),
});
export type SerpResponse = z.infer<typeof SerpResponseSchema>;

/** One organic result inside `data.parsing.entities.organic` (entity shape not shown; our choice). */
export const SerpOrganicSchema = z.looseObject({
  position: z.number().int(),
  title: z.string(),
  url: z.string(),
  snippet: z.string().optional(),
  displayed_url: z.string().optional(),
});

// ---------- domain health / knowledge ----------

/** A bare domain: host name only, no scheme, path, port or whitespace. */
export const BareDomainSchema = z
  .string()
  .regex(
    /^(?=.{1,253}$)(?!-)[a-z0-9-]{1,63}(?<!-)(\.(?!-)[a-z0-9-]{1,63}(?<!-))+$/i,
    "must be a bare domain such as example.com, not a URL",
  );

export const DomainHealthRequestSchema = z.object({ domains: z.array(BareDomainSchema).min(1).max(100) });

export const DomainHealthEntrySchema = z.looseObject({
  domain: z.string(),
  status: z.string(),
  success_rate: z.number().optional(),
  consecutive_bad_windows: z.number().optional(),
  history: z
    .array(
      z.looseObject({
        hours_ago: z.number(),
        window_start: z.string(),
        window_end: z.string(),
        status: z.string(),
        success_rate: z.number(),
      }),
    )
    .optional(),
});
export const DomainHealthResponseSchema = z.looseObject({ domains: z.array(DomainHealthEntrySchema) });

export const DriverKnowledgeSchema = z.looseObject({
  driver: z.string(),
  antibot_systems: z.array(z.string()),
  requires_js_rendering: z.boolean(),
});

// ---------- agents ----------

export const AgentRecordSchema = z.looseObject({
  name: z.string(),
  is_public: z.boolean(),
  display_name: z.string(),
  managed_by: z.enum(["vendor", "community", "self_managed"]).optional(),
  description: z.string().nullable().optional(),
  vertical: z.string().nullable().optional(),
  entity_type: z.string().nullable().optional(),
  domain: z.string().nullable().optional(),
});
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

export const InputPropertySchema = z.looseObject({
  name: z.string(),
  required: z.boolean(),
  type: z.string(),
  description: z.string(),
  rules: z.array(z.string()),
  examples: z.array(anyValue).nullable(),
  default: anyValue.nullable(),
  is_localization_param: z.boolean(),
  is_pagination_param: z.boolean(),
});
export type InputProperty = z.infer<typeof InputPropertySchema>;

export const AgentDetailSchema = AgentRecordSchema.extend({
  output_schema: z.record(z.string(), OutputFragmentSchema).nullable().optional(),
  input_properties: z.array(InputPropertySchema).nullable().optional(),
  feature_flags: z
    .looseObject({ is_localization_supported: z.boolean(), is_pagination_supported: z.boolean() })
    .optional(),
});
export type AgentDetail = z.infer<typeof AgentDetailSchema>;

export const AgentListQuerySchema = z.object({
  privacy: z.enum(["public", "private", "all"]).default("all"),
  managed_by: z.enum(["vendor", "community", "self_managed"]).optional(),
  limit: z.coerce.number().int().min(1).max(250).default(100),
  offset: z.coerce.number().int().min(0).default(0),
});

export const AGENT_FORMATS = ["html", "markdown", "headers"] as const;

export const AgentRunRequestSchema = z.object({
  agent: z.string().min(1),
  params: z.record(z.string(), anyValue).default({}),
  formats: z.array(z.enum(AGENT_FORMATS)).optional(),
});
export type AgentRunRequest = z.input<typeof AgentRunRequestSchema>;

const AgentBatchItemSchema = AgentRunRequestSchema.extend({
  params: z.record(z.string(), anyValue).optional(),
}).partial();

export const AgentBatchRequestSchema = z.object({
  inputs: z.array(AgentBatchItemSchema).min(1).max(1000),
  shared_inputs: AgentBatchItemSchema.default({}),
});

// ---------- templates (v2) ----------

export const TemplateRunRequestSchema = z.object({
  template: z.string().min(1),
  params: z.record(z.string(), anyValue).default({}),
  formats: z.array(z.enum(["html", "markdown"])).optional(),
  localization: z.boolean().optional(),
});
export type TemplateRunRequest = z.input<typeof TemplateRunRequestSchema>;

export const TemplateBatchRequestSchema = z.object({
  inputs: z
    .array(
      TemplateRunRequestSchema.omit({ template: true })
        .extend({ params: z.record(z.string(), anyValue).optional() })
        .partial(),
    )
    .min(1)
    .max(1000),
  shared_inputs: TemplateRunRequestSchema.extend({ params: z.record(z.string(), anyValue).optional() })
    .partial()
    .extend({ template: z.string().min(1) }),
});

export const TemplateVersionSchema = z.looseObject({
  id: z.string(),
  name: z.string(),
  version_number: z.number().int(),
  created_at: isoTimestamp,
  input_schema: z.record(z.string(), anyValue),
  output_schema: z.record(z.string(), anyValue),
  metadata: z.looseObject({
    data_source: z.string().optional(),
    description: z.string().optional(),
    display_name: z.string().optional(),
    domain: z.string().optional(),
    entity_type: z.string().optional(),
    vertical: z.string().optional(),
    tags: z.array(z.string()).optional(),
  }),
  samples: z.array(z.looseObject({ input: anyValue, output: anyValue })).optional(),
});
export type TemplateVersion = z.infer<typeof TemplateVersionSchema>;
export const TemplateVersionListSchema = listOf(TemplateVersionSchema);

// ---------- crawl and map ----------

export const CRAWL_EVENTS = ["started", "page", "completed", "failed"] as const;

export const CrawlRequestSchema = z.object({
  url: z.string().url(),
  limit: z.number().int().min(1).max(1000).default(10),
  callback: z
    .object({
      url: z.string().url(),
      headers: z.record(z.string(), z.string()).optional(),
      metadata: z.record(z.string(), anyValue).optional(),
      events: z.array(z.enum(CRAWL_EVENTS)).optional(),
    })
    .optional(),
});
export type CrawlRequest = z.input<typeof CrawlRequestSchema>;

export const CrawlIdResponseSchema = z.looseObject({ crawl_id: z.string() });

export const CrawlStatusSchema = z.looseObject({
  crawl: z.looseObject({
    status: z.enum(["running", "succeeded", "failed"]).or(z.string()),
    completed: z.number().int(),
    total: z.number().int(),
    tasks: z.array(z.looseObject({ id: z.string(), url: z.string().optional(), state: z.string() })),
    error: z.string().optional(),
  }),
});
export type CrawlStatus = z.infer<typeof CrawlStatusSchema>;

export const MapRequestSchema = z.object({
  url: z.string().url(),
  limit: z.number().int().min(1).max(5000).optional(),
  callback_url: z.string().url().optional(),
});
export type MapRequest = z.input<typeof MapRequestSchema>;

// ---------- jobs ----------

export const JobRunSchema = z.looseObject({
  id: z.string(),
  job_id: z.string(),
  created_at: isoTimestamp,
  status: z.string(),
  triggered_by: z.string(),
  started_at: isoTimestamp.optional(),
  finished_at: isoTimestamp.optional(),
  input_count: z.number().int().optional(),
  result_count: z.number().int().optional(),
  artifact_ids: z.array(z.string()).optional(),
});
export type JobRun = z.infer<typeof JobRunSchema>;
export const JobRunListSchema = listOf(JobRunSchema);

export const ArtifactDownloadSchema = z.looseObject({ url: z.string(), expires_at: isoTimestamp });

// ---------- callbacks ----------

export const TaskCallbackBodySchema = z.looseObject({
  task: z.looseObject({
    id: z.string(),
    state: z.string(),
    status_code: z.number().int().optional(),
    created_at: isoTimestamp,
    modified_at: isoTimestamp.optional(),
    input: anyValue.optional(),
    api_type: z.string().optional(),
  }),
});

// ---------- legacy social event ----------

const PersonSchema = z.looseObject({ id: z.string(), name: z.string(), profile_picture: z.string() });
export const SocialEventResponseSchema = z.looseObject({
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
});
