/**
 * Zod schemas of the resources generation 2 added (spec/web-data-api-v2.md §4, §8, §12–15) and
 * their generation-1 forms (§18): agent search, template generations and template records,
 * research agents and runs, job administration, crawl listing and media. Same rules as
 * schemas.ts: requests are exact (unknown members stripped), responses are read by need (loose
 * objects, `null` is absent, any string where the spec lists values).
 */
import { z } from "zod";
import { lazy } from "./lazy-schema.js";

const opt = <T extends z.ZodType>(schema: T) =>
  z.optional(z.preprocess((v) => (v === null ? undefined : v), schema.optional()));
const list = <T extends z.ZodType>(item: T) =>
  z.preprocess((v) => (Array.isArray(v) ? v.filter((x) => x != null) : v == null ? [] : v), z.array(item));
const anyObject = z.record(z.string(), z.unknown());
/**
 * A list of secondary entries (citations, sources): an entry its schema rejects (a citation whose
 * `url` is null) says nothing a tool can show and is dropped, so it cannot cost the whole answer.
 */
const usable = <T extends z.ZodType>(item: T) =>
  z.preprocess((v) => (Array.isArray(v) ? v.filter((x) => item.safeParse(x).success) : v), list(item));

/** An offset page `{items, limit, offset, total}`; the generation-1 jobs form `{items, total, page, per_page}` too. */
export const offsetPage = <T extends z.ZodType>(item: T) =>
  z.looseObject({
    items: list(item),
    total: opt(z.number()),
    offset: opt(z.number()),
    page: opt(z.number()),
  });

// ---------- search (§4) ----------

export const SEARCH_FOCUS = [
  "general",
  "news",
  "location",
  "coding",
  "geo",
  "shopping",
  "social",
  "academic",
] as const;
export const SEARCH_DEPTHS = ["lite", "fast", "deep"] as const;
export const TIME_RANGES = ["hour", "day", "week", "month", "year"] as const;
const searchDate = z.string().regex(/^\d{4}(-\d{2}-\d{2})?$/, "must be YYYY-MM-DD or YYYY");

export const SearchRequestSchema = lazy(() =>
  z
    .object({
      query: z.string().min(1),
      focus: z.union([z.string(), z.array(z.string()).min(1).max(10)]).optional(),
      search_depth: z.enum(SEARCH_DEPTHS).optional(),
      max_results: z.number().int().min(1).max(100).optional(),
      max_subagents: z.number().int().min(1).max(10).optional(),
      include_answer: z.boolean().optional(),
      output_format: z.enum(["plain_text", "markdown", "simplified_html"]).optional(),
      include_domains: z.array(z.string()).max(50).optional(),
      exclude_domains: z.array(z.string()).max(50).optional(),
      content_type: z.array(z.string()).optional(),
      time_range: z.enum(TIME_RANGES).optional(),
      start_date: searchDate.optional(),
      end_date: searchDate.optional(),
      country: z.string().optional(),
      locale: z.string().optional(),
    })
    .refine((b) => !(b.time_range && (b.start_date || b.end_date)), {
      message: "time_range cannot be combined with start_date or end_date",
      path: ["time_range"],
    }),
);
export type SearchRequest = z.input<typeof SearchRequestSchema>;

export const SearchResultSchema = lazy(() =>
  z.looseObject({
    url: z.string(),
    title: opt(z.string()),
    description: opt(z.string()),
    content: opt(z.string()),
    metadata: opt(anyObject),
    additional_data: opt(anyObject),
  }),
);
export const SearchResponseSchema = lazy(() =>
  z.looseObject({
    request_id: opt(z.string()),
    total_results: opt(z.number()),
    results: list(SearchResultSchema),
    answer: opt(z.string()),
    answer_citations: opt(usable(z.looseObject({ marker: z.number(), result_index: z.number() }))),
  }),
);
export type SearchResponse = z.infer<typeof SearchResponseSchema>;

// ---------- template generations and template records (§13, §18) ----------

const generationMetadata = z
  .object({
    description: z.string().optional(),
    display_name: z.string().optional(),
    tags: z.array(z.string()).optional(),
  })
  .optional();
/** A new template: `{prompt, url, name?, input_schema?, output_schema?, metadata?}`. */
export const NewGenerationSchema = lazy(() =>
  z.object({
    prompt: z.string().min(1).max(10_000),
    url: z.string().url(),
    name: z
      .string()
      .regex(/^[a-z][a-z0-9_]{2,63}$/)
      .optional(),
    input_schema: anyObject.optional(),
    output_schema: anyObject.optional(),
    metadata: generationMetadata,
  }),
);
export const RefineGenerationV2Schema = lazy(() =>
  z.object({
    from_extract_template: z.string().min(1),
    prompt: z.string().min(1),
  }),
);
export const RefineGenerationV1Schema = lazy(() =>
  z.object({
    from_agent: z.string().min(1),
    prompt: z.string().min(1),
  }),
);

export const GeneratedVersionSchema = lazy(() =>
  z.looseObject({
    id: opt(z.string()),
    name: opt(z.string()),
    agent_name: opt(z.string()),
    version_number: opt(z.number()),
    input_schema: opt(anyObject),
    output_schema: opt(anyObject),
    metadata: opt(anyObject),
  }),
);
export const GenerationRecordSchema = lazy(() =>
  z.looseObject({
    id: z.string(),
    status: z.string(),
    name: opt(z.string()),
    agent_name: opt(z.string()),
    error: opt(z.string()),
    summary: opt(z.string()),
    source_version_id: opt(z.string()),
    generated_version_id: opt(z.string()),
    generated_version: opt(GeneratedVersionSchema),
  }),
);
export type GenerationRecord = z.infer<typeof GenerationRecordSchema>;

/** RFC 6902 operations (PATCH of templates and research agents). */
export const JsonPatchSchema = lazy(() =>
  z
    .array(
      z.object({
        op: z.enum(["add", "remove", "replace", "move", "copy", "test"]),
        path: z.string().startsWith("/"),
        from: z.string().optional(),
        value: z.unknown().optional(),
      }),
    )
    .min(1),
);
export type JsonPatch = z.infer<typeof JsonPatchSchema>;

export const TemplateRecordSchema = lazy(() =>
  z.looseObject({
    id: opt(z.string()),
    name: z.string(),
    published_version_id: opt(z.string()),
    published_version: opt(GeneratedVersionSchema),
    updated_at: opt(z.string()),
  }),
);

// ---------- research agents (§14; generation 1 /v1/task-agents, §18) ----------

export const EFFORTS = ["low", "medium", "high", "x-high", "max"] as const;
export const USE_CASES = ["research", "enrichment", "dataset_building"] as const;
const sourceGroups = z.array(
  z.object({ title: z.string(), domains: z.array(z.string()), order: z.number().int().optional() }),
);
const sourcesInput = z
  .object({
    allow: sourceGroups.optional(),
    block: sourceGroups.optional(),
    prioritize: z.string().optional(),
    avoid: z.string().optional(),
  })
  .optional();

/** Agent create body; generation 1 says `domain_expertise` where generation 2 says `skill`. */
export const ResearchAgentCreateSchema = lazy(() =>
  z.object({
    template: z.string().optional(),
    agent_name: z.string().optional(),
    display_name: z.string().optional(),
    description: z.string().optional(),
    goals: z.array(z.string()).optional(),
    sources: sourcesInput,
    output_schema: anyObject.optional(),
    effort: z.enum(EFFORTS).optional(),
    use_case: z.enum(USE_CASES).optional(),
    skill: z.string().optional(),
    domain_expertise: z.string().optional(),
    icon: z.string().optional(),
    is_active: z.boolean().optional(),
    suggested_questions: z.array(z.string()).optional(),
  }),
);

export const ResearchRunRequestSchema = lazy(() =>
  z.object({
    input: z.string().min(1),
    effort: z.enum(EFFORTS).optional(),
    output_schema: anyObject.optional(),
    input_data: z.union([anyObject, z.array(anyObject)]).optional(),
    sources: sourcesInput,
    previous_interaction_id: z.string().optional(),
    enable_events: z.boolean().optional(),
    skill: z.string().optional(),
    use_case: z.enum(USE_CASES).optional(),
    origin: z.literal("api").optional(),
    agent_name: z.string().optional(),
  }),
);
export type ResearchRunRequest = z.input<typeof ResearchRunRequestSchema>;

export const ResearchAgentSchema = lazy(() =>
  z.looseObject({
    id: z.string(),
    agent_name: opt(z.string()),
    template_name: opt(z.string()),
    display_name: opt(z.string()),
    description: opt(z.string()),
    effort: opt(z.string()),
    use_case: opt(z.string()),
    is_active: opt(z.boolean()),
  }),
);
export const ResearchAgentPageSchema = lazy(() => offsetPage(ResearchAgentSchema));

export const ResearchRunSchema = lazy(() =>
  z.looseObject({
    id: z.string(),
    web_search_agent_id: opt(z.string()),
    status: z.string(),
    is_active: opt(z.boolean()),
    interaction_id: opt(z.string()),
    error: opt(z.looseObject({ message: opt(z.string()) })),
  }),
);
export type ResearchRun = z.infer<typeof ResearchRunSchema>;

const citation = z.looseObject({ url: z.string(), title: opt(z.string()), excerpts: opt(list(z.string())) });

export const ResearchResultSchema = lazy(() =>
  z.looseObject({
    // the run beside the output is secondary: one it cannot read does not cost the output
    run: z.preprocess(
      (v) => (ResearchRunSchema.safeParse(v).success ? v : undefined),
      opt(ResearchRunSchema),
    ),
    output: opt(
      z.looseObject({
        type: opt(z.string()),
        content: opt(z.unknown()),
        trust: opt(
          z.looseObject({
            confidence: opt(z.string()),
            reasoning: opt(z.string()),
            sources: opt(usable(z.looseObject({ url: z.string(), title: opt(z.string()) }))),
            claims: opt(
              list(
                z.looseObject({
                  callout: opt(z.number()),
                  path: opt(z.string()),
                  confidence: opt(z.string()),
                  citations: opt(usable(citation)),
                }),
              ),
            ),
          }),
        ),
      }),
    ),
  }),
);
export type ResearchResult = z.infer<typeof ResearchResultSchema>;

// ---------- jobs (§15; generation 1 /v1/jobs, §18) ----------

const jobInputs = z.object({
  type: z.enum(["s3", "inline", "file"]),
  data: z.array(anyObject).optional(),
  file_path: z.string().optional(),
});
const jobDestination = z.object({
  type: z.enum(["file", "s3"]),
  path: z.string(),
  format: z.enum(["jsonl", "csv", "parquet"]).optional(),
});
const jobSchedule = z.object({ cron: z.string().min(1), enabled: z.boolean() });
export const JobCreateSchema = lazy(() =>
  z.object({
    extract_template_name: z.string().min(1).optional(),
    agent_name: z.string().min(1).optional(),
    name: z.string().min(1),
    display_name: z.string().optional(),
    description: z.string().optional(),
    inputs: jobInputs.optional(),
    destination: jobDestination.optional(),
    schedule: jobSchedule.optional(),
  }),
);
export const JobUpdateSchema = lazy(() =>
  z.object({
    display_name: z.string().optional(),
    description: z.string().optional(),
    inputs: jobInputs.optional(),
    destination: jobDestination.optional(),
    schedule: jobSchedule.optional(),
  }),
);
export type JobUpdate = z.input<typeof JobUpdateSchema>;

export const JobSchema = lazy(() =>
  z.looseObject({
    id: z.string(),
    name: opt(z.string()),
    extract_template_name: opt(z.string()),
    agent_name: opt(z.string()),
    schedule: opt(z.looseObject({ cron: opt(z.string()), enabled: opt(z.boolean()) })),
    last_run_status: opt(z.string()),
  }),
);
export const JobPageSchema = lazy(() => offsetPage(JobSchema));
export const JobRunSummarySchema = lazy(() =>
  z.looseObject({
    id: z.string(),
    status: z.string(),
    job_id: opt(z.string()),
  }),
);
export const RunCancelSchema = lazy(() => z.looseObject({ id: opt(z.string()), status: z.string() }));
export const ArtifactSchema = lazy(() =>
  z.looseObject({
    id: z.union([z.string(), z.number()]).transform(String),
    type: opt(z.string()),
    description: opt(z.string()),
    created_at: opt(z.string()),
  }),
);
export const ArtifactListSchema = lazy(() => z.looseObject({ items: list(ArtifactSchema) }));
export const ArtifactPreviewSchema = lazy(() =>
  z.looseObject({
    columns: opt(list(z.string())),
    rows: list(anyObject),
    row_count: opt(z.number()),
  }),
);

// ---------- crawl listing and termination (§8) ----------

export const CRAWL_LIST_STATUSES = ["queued", "running", "succeeded", "failed", "canceled", "all"] as const;
export const CrawlListQuerySchema = lazy(() =>
  z.object({
    status: z.enum(CRAWL_LIST_STATUSES).default("all"),
    cursor: z.string().optional(),
    limit: z.coerce.number().int().min(1).max(100).default(20),
  }),
);
export const CrawlListSchema = lazy(() =>
  z.looseObject({
    data: list(
      z.looseObject({
        crawl_id: z.string(),
        url: opt(z.string()),
        status: opt(z.string()),
        completed: opt(z.number()),
        total: opt(z.number()),
      }),
    ),
    pagination: opt(z.looseObject({ has_next: opt(z.boolean()), next_cursor: opt(z.string()) })),
  }),
);
export const CrawlCancelSchema = lazy(() => z.looseObject({ status: z.string() }));

// ---------- media (§12) ----------

export const MediaRequestSchema = lazy(() =>
  z.object({
    url: z.string().url(),
    country: z.string().optional(),
    locale: z.string().optional(),
    expected_mime_types: z.array(z.string()).optional(),
    callback_url: z.string().url().optional(),
  }),
);
