/**
 * The spec's response shapes, exactly as the spec shows them (strict where src/api/schemas.ts
 * reads by need): the sandbox's own tests check that in its default `spec` dialect it answers
 * what the spec documents, member for member, while the client stays liberal in what it reads.
 */
import { z } from "zod";
import { InputPropertySchema, OutputFragmentSchema, SERP_STATUSES } from "../../src/api/schemas.js";

const isoTimestamp = z.string();
const anyValue = z.unknown();

export const listOf = <T extends z.ZodType>(item: T) =>
  z.looseObject({
    items: z.array(item),
    limit: z.number().int(),
    offset: z.number().int(),
    total: z.number().int(),
  });

export const ValidationDetailSchema = z.looseObject({
  loc: z.array(z.union([z.string(), z.number()])),
  msg: z.string(),
  type: z.string(),
  ctx: z.record(z.string(), anyValue).optional(),
  input: anyValue.optional(),
});

export const ValidationErrorBodySchema = z.looseObject({ detail: z.array(ValidationDetailSchema) });

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

export const TaskIdResponseSchema = z.looseObject({ task_id: z.string() });

export const TaskListResponseSchema = z.looseObject({
  tasks: z.array(TaskRecordSchema),
  next_cursor: z.string().nullable().optional(),
});

export const BatchSubmissionSchema = z.looseObject({
  batch_id: z.string(),
  batch_size: z.number().int(),
  tasks: z.array(TaskRecordSchema).optional(),
});

export const BatchProgressSchema = z.looseObject({
  completed_count: z.number().int(),
  total: z.number().int(),
  progress: z.number(),
  completed: z.boolean(),
});

export const BatchDetailSchema = z.looseObject({
  batch_id: z.string().optional(),
  tasks: z.array(z.looseObject({ id: z.string(), state: z.string() })),
});

export const BatchListResponseSchema = z.looseObject({
  batches: z.array(z.looseObject({ batch_id: z.string(), batch_size: z.number().int().optional() })),
});

export const NextPageSchema = z.looseObject({ next_page_params: z.record(z.string(), anyValue) });

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

export const AgentDetailSchema = AgentRecordSchema.extend({
  output_schema: z.record(z.string(), OutputFragmentSchema).nullable().optional(),
  input_properties: z.array(InputPropertySchema).nullable().optional(),
  feature_flags: z
    .looseObject({ is_localization_supported: z.boolean(), is_pagination_supported: z.boolean() })
    .optional(),
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

export const TemplateVersionListSchema = listOf(TemplateVersionSchema);

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

export const JobRunListSchema = listOf(JobRunSchema);

export const ArtifactDownloadSchema = z.looseObject({ url: z.string(), expires_at: isoTimestamp });
