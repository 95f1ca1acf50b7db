/**
 * Property (issue 21): every generation-2 response shape of web-data-api-v2.md, with random
 * `null`s, extra members and unknown enum strings (`test/helpers/shape-mutation.ts`), is read the
 * way the client reads it (the route's generation-2 `read`, then the method's schema) without a
 * rejection, and what the tools take from it (`keep`: organic results, page markdown, links,
 * crawl pages, ids, the state's phase) is what they take from the undamaged body. Below, the
 * state words: a terminal word is terminal in every kind, an unknown one stays running.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { ROUTES, type RouteName, type RouteSide } from "../../src/api/routes.js";
import * as S from "../../src/api/schemas.js";
import * as V from "../../src/api/schemas-v2.js";
import { phaseOf } from "../../src/async/states.js";
import { damageArb, damaged, type ShapeCase } from "../helpers/shape-mutation.js";

type Any = any;
interface Case extends ShapeCase {
  /** The route whose generation-2 side reads the body (its `read` runs before the schema). */
  route: RouteName;
  schema: z.ZodType;
  /** What the tools take from the parsed answer. */
  keep: (parsed: Any) => unknown;
}

const task = (id: string, state = "in_progress") => ({
  id,
  state,
  created_at: "2026-11-23T10:00:00Z",
  input: { url: "https://example.com/" },
  _query: {},
  status_url: `https://api.example/v2/tasks/${id}`,
  modified_at: "2026-11-23T10:00:01Z",
  account_name: "acct",
  api_type: "extract",
  queue: "default",
  status_code: 200,
});

const envelope = (data: Record<string, unknown>) => ({
  task_id: "t1",
  url: "https://example.com/",
  status: "success",
  data,
  metadata: { agent: "a", driver: "http", query_duration: 12, query_time: "t", tag: "x" },
  pagination: { next_page_params: { page: 2 } },
  status_code: 200,
  warnings: ["w"],
});

const organic = [1, 2].map((n) => ({
  entity_type: "OrganicResult",
  position: n,
  title: `Result ${n}`,
  url: `https://r${n}.example/`,
  snippet: "s",
  displayed_url: "r.example",
  cleaned_domain: "r.example",
}));

const crawlRecord = {
  crawl_id: "c1",
  account_name: "acct",
  url: "https://example.com/",
  status: "succeeded",
  crawl_options: {
    allow_external_links: false,
    allow_subdomains: false,
    crawl_entire_domain: false,
    ignore_query_parameters: true,
    limit: 2,
    max_discovery_depth: 2,
    sitemap: "include",
  },
  created_at: "t",
  updated_at: "t",
  completed_at: null,
  total: 2,
  completed: 2,
  failed: 0,
  pending: 0,
  tasks: [
    { task_id: "p1", status: "completed", created_at: "t", updated_at: "t" },
    { task_id: "p2", status: "completed", created_at: "t", updated_at: "t" },
  ],
};

const version = {
  id: "v-1",
  name: "tpl",
  version_number: 3,
  created_at: "t",
  input_schema: {
    type: "object",
    properties: { query: { type: "string", description: "Q" } },
    required: ["query"],
  },
  output_schema: { type: "object", properties: { title: { type: "string" } } },
  metadata: {
    description: "d",
    display_name: "D",
    domain: "x.com",
    entity_type: "e",
    vertical: "v",
    tags: ["t"],
  },
  samples: [{ input: { query: "x" }, output: { title: "y" } }],
};

const researchAgent = {
  id: "wsa_1",
  agent_name: "tents",
  display_name: "Tents",
  description: "d",
  icon: "i",
  skill: "s",
  effort: "medium",
  use_case: "research",
  is_active: true,
  output_schema: null,
  goals: [{ id: "wsag_1", goal: "g", order: 0 }],
  sources: { allow: [{ id: "wsas_1", title: "t", domains: ["a.example"], order: 0 }], block: [] },
  suggested_questions: [{ id: "wsasq_1", question: "q", order: 0 }],
  created_at: "t",
  updated_at: "t",
};
const run = {
  id: "task_run_1",
  web_search_agent_id: "wsa_1",
  status: "completed",
  is_active: false,
  effort: "medium",
  interaction_id: "i1",
  created_at: "t",
  prompt: "p",
};
const jobRun = {
  id: "run_1",
  job_id: "job_1",
  status: "SUCCESS",
  triggered_by: "manual",
  created_at: "t",
  started_at: "t",
  finished_at: "t",
  input_count: 1,
  result_count: 1,
  artifact_ids: ["art_1"],
};
/** An offset page (§2.2): `{items, limit, offset, total}`. */
const offsetPage = (items: unknown[]) => ({ items, limit: 20, offset: 0, total: items.length });
const urls = (list: Any[] | undefined) => (list ?? []).map((x: Any) => x?.url);
const ids = (list: Any[] | undefined) => (list ?? []).map((x: Any) => x?.id);

/** A SERP response (§3.4) whose organic results (`entities.OrganicResult[]`) the tools need. */
const serpCase = (entities: Record<string, unknown>): Case => ({
  route: "serp",
  schema: S.SerpResponseSchema,
  body: envelope({ parsing: { status: "success", entities } }),
  needed: [["data", "parsing", "entities", "OrganicResult", "*", "url"]],
  enums: [["status"], ["data", "parsing", "status"]],
  keep: (p) => urls(p.data.parsing.entities.OrganicResult),
});

const CASES: Record<string, Case> = {
  "extract (sync)": {
    route: "extract",
    schema: S.TaskResultSchema,
    body: envelope({ markdown: "# Hello", html: "<h1>Hello</h1>", links: ["https://example.com/a"] }),
    needed: [
      ["data", "markdown"],
      ["data", "links"],
    ],
    enums: [["status"]],
    keep: (p) => [p.data.markdown, p.data.links],
  },
  "extract async": {
    route: "extractAsync",
    schema: S.TaskIdResponseSchema,
    body: { status: "success", task: task("t1", "queued") },
    needed: [["task", "id"]],
    enums: [["status"], ["task", "state"], ["task", "api_type"]],
    keep: (p) => p.task_id,
  },
  "task status": {
    route: "getTask",
    schema: S.TaskStatusResponseSchema,
    body: { task: { ...task("t1", "error"), error: "boom", error_type: "fetch_error" } },
    needed: [
      ["task", "id"],
      ["task", "state"],
      ["task", "error"],
    ],
    enums: [["task", "api_type"]],
    keep: (p) => [p.task.id, phaseOf("task", p.task.state), p.task.error],
  },
  "task results": {
    route: "getTaskResults",
    schema: S.TaskResultSchema,
    body: { ...envelope({ markdown: "page" }), task: task("t1", "success") },
    needed: [["data", "markdown"]],
    enums: [["status"], ["task", "state"]],
    keep: (p) => p.data.markdown,
  },
  "tasks list (cursor)": {
    route: "listTasks",
    schema: S.TaskListResponseSchema,
    body: {
      data: [task("t1"), task("t2", "success")],
      pagination: { has_next: true, next_cursor: "c2", total: 9 },
    },
    needed: [
      ["data", "*", "id"],
      ["pagination", "next_cursor"],
    ],
    enums: [
      ["data", "*", "state"],
      ["data", "*", "api_type"],
    ],
    keep: (p) => [ids(p.tasks), p.next_cursor],
  },
  "batch created": {
    route: "extractBatch",
    schema: S.BatchSubmissionSchema,
    body: { batch_id: "b1", batch_size: 2, tasks: [task("t1"), task("t2")] },
    needed: [["batch_id"], ["tasks", "*", "id"]],
    enums: [["tasks", "*", "state"]],
    keep: (p) => [p.batch_id, ids(p.tasks)],
  },
  "batch detail": {
    route: "getBatch",
    schema: S.BatchDetailSchema,
    body: {
      id: "b1",
      status: "success",
      completed: true,
      completed_count: 2,
      progress: 1,
      created_at: "t",
      completed_at: "t",
      tasks: [task("t1", "success"), task("t2", "error")],
    },
    needed: [["tasks", "*", "id"], ["tasks", "*", "state"], ["completed"]],
    enums: [["status"]],
    keep: (p) => [ids(p.tasks), p.tasks.map((t: Any) => phaseOf("task", t.state))],
  },
  "batch progress": {
    route: "getBatchProgress",
    schema: S.BatchProgressSchema,
    body: {
      id: "b1",
      status: "success",
      completed: false,
      completed_count: 1,
      progress: 0.5,
      completed_at: null,
    },
    needed: [["completed"], ["completed_count"]],
    enums: [["status"]],
    keep: (p) => [p.completed, p.completed_count],
  },
  "serp (entities by type)": serpCase({ OrganicResult: organic, RelatedSearch: [{ query: "q" }] }),
  // POST /v2/fast-serp answers the same SERP response, read by the same schema.
  "fast serp": serpCase({ OrganicResult: organic.slice(0, 1) }),
  // POST /v2/serp/batch answers batch-created, as extract's batch does.
  "serp batch": {
    route: "extractBatch",
    schema: S.BatchSubmissionSchema,
    body: { batch_id: "b9", batch_size: 1, tasks: [{ ...task("s1"), api_type: "serp" }] },
    needed: [["batch_id"], ["tasks", "*", "id"]],
    enums: [
      ["tasks", "*", "state"],
      ["tasks", "*", "api_type"],
    ],
    keep: (p) => [p.batch_id, ids(p.tasks)],
  },
  search: {
    route: "search",
    schema: V.SearchResponseSchema,
    body: {
      request_id: "r1",
      total_results: 2,
      results: [1, 2].map((n) => ({
        url: `https://s${n}.example/`,
        title: `S${n}`,
        description: "d",
        content: `content ${n}`,
        metadata: { position: n, entity_type: "OrganicResult", country: "US", locale: "en" },
      })),
      answer: "A [1]",
      answer_citations: [{ marker: 1, result_index: 0 }],
    },
    needed: [["results", "*", "url"], ["results", "*", "content"], ["answer"]],
    enums: [["results", "*", "metadata", "entity_type"]],
    keep: (p) => [urls(p.results), p.results.map((r: Any) => r.content), p.answer],
  },
  map: {
    route: "map",
    schema: S.MapResponseSchema,
    body: {
      task_id: "m1",
      success: true,
      links: [1, 2, 3].map((n) => ({ url: `https://example.com/${n}`, title: "t", description: "d" })),
    },
    needed: [["links", "*", "url"]],
    enums: [],
    keep: (p) => (p.links ?? []).map((l: Any) => (typeof l === "string" ? l : l.url)),
  },
  "crawl record (creation)": {
    route: "crawl",
    schema: S.CrawlIdResponseSchema,
    body: { ...crawlRecord, status: "queued", tasks: [] },
    needed: [["crawl_id"]],
    enums: [["status"], ["crawl_options", "sitemap"]],
    keep: (p) => p.crawl_id,
  },
  "crawl status and pages": {
    route: "getCrawl",
    schema: S.CrawlStatusSchema,
    body: crawlRecord,
    needed: [["status"], ["tasks", "*", "task_id"]],
    enums: [
      ["tasks", "*", "status"],
      ["crawl_options", "sitemap"],
    ],
    keep: (p) => [phaseOf("crawl", p.crawl.status), ids(p.crawl.tasks)],
  },
  "crawl list": {
    route: "listCrawls",
    schema: V.CrawlListSchema,
    body: { data: [crawlRecord], pagination: { has_next: false, next_cursor: null, total: 1 } },
    needed: [["data", "*", "crawl_id"]],
    enums: [["data", "*", "status"]],
    keep: (p) => JSON.stringify(p).includes('"c1"'),
  },
  "crawl cancel": {
    route: "cancelCrawl",
    schema: V.CrawlCancelSchema,
    body: { status: "canceled" },
    needed: [["status"]],
    enums: [],
    keep: (p) => phaseOf("crawl", p.status),
  },
  "domain knowledge": {
    route: "domainDriver",
    schema: S.DriverKnowledgeSchema,
    body: {
      driver: "vx8",
      description: "browser",
      antibots: ["cloudflare"],
      need_to_render: true,
      url: "example.com",
    },
    needed: [["driver"], ["antibots"], ["need_to_render"]],
    enums: [],
    keep: (p) =>
      JSON.stringify([
        p.driver,
        p.antibots ?? p.antibot_systems,
        p.need_to_render ?? p.requires_js_rendering,
      ]),
  },
  "media async": {
    route: "mediaAsync",
    schema: S.TaskIdResponseSchema,
    body: { status: "success", task: { ...task("md1", "queued"), api_type: "media" } },
    needed: [["task", "id"]],
    enums: [["status"], ["task", "state"], ["task", "api_type"]],
    keep: (p) => p.task_id,
  },
  "templates list": {
    route: "listAgents",
    schema: z.array(S.AgentRecordSchema),
    body: {
      items: [{ id: "i1", name: "tpl", created_at: "t", updated_at: "t", published_version: version }],
      limit: 20,
      offset: 0,
      total: 1,
    },
    needed: [["items", "*", "name"]],
    enums: [],
    keep: (p) => p.map((a: Any) => a.name),
  },
  "template detail": {
    route: "getAgent",
    schema: S.AgentDetailSchema,
    body: {
      id: "i1",
      name: "tpl",
      created_at: "t",
      updated_at: "t",
      published_version_id: "v-1",
      published_version: version,
    },
    needed: [["name"], ["published_version", "input_schema", "properties", "query"]],
    enums: [],
    // an extra member of `properties` is one more input: only the documented one is checked
    keep: (p) => [p.name, (p.input_properties ?? []).some((i: Any) => i.name === "query")],
  },
  "template versions": {
    route: "listTemplateVersions",
    schema: S.TemplateVersionListSchema,
    body: offsetPage([version]),
    needed: [
      ["items", "*", "version_number"],
      ["items", "*", "input_schema"],
    ],
    enums: [],
    keep: (p) => p.items.map((v: Any) => v.version_number),
  },
  "template run": {
    route: "runTemplate",
    schema: S.TaskResultSchema,
    body: envelope({ parsing: { title: "Boots", price: 10 } }),
    needed: [
      ["data", "parsing", "title"],
      ["data", "parsing", "price"],
    ],
    enums: [["status"]],
    keep: (p) => [p.data.parsing.title, p.data.parsing.price],
  },
  generation: {
    route: "getGeneration",
    schema: V.GenerationRecordSchema,
    body: {
      id: "g1",
      status: "success",
      name: "tpl",
      created_at: "t",
      completed_at: "t",
      summary: "s",
      generated_version_id: "v-1",
      generated_version: version,
    },
    needed: [["id"], ["status"], ["generated_version", "name"], ["generated_version", "version_number"]],
    enums: [],
    keep: (p) => [
      p.id,
      phaseOf("generation", p.status),
      p.generated_version.name,
      p.generated_version.version_number,
    ],
  },
  "research agents": {
    route: "listResearchAgents",
    schema: V.ResearchAgentPageSchema,
    body: offsetPage([researchAgent]),
    needed: [["items", "*", "id"]],
    enums: [
      ["items", "*", "effort"],
      ["items", "*", "use_case"],
    ],
    keep: (p) => ids(p.items),
  },
  "research run": {
    route: "getResearchRun",
    schema: V.ResearchRunSchema,
    body: { ...run, status: "running", is_active: true },
    needed: [["id"], ["web_search_agent_id"], ["status"]],
    enums: [["effort"]],
    keep: (p) => [p.id, p.web_search_agent_id, phaseOf("research", p.status)],
  },
  "research result": {
    route: "getResearchResult",
    schema: V.ResearchResultSchema,
    body: {
      run,
      output: {
        type: "text",
        content: "Tents [1]",
        trust: {
          confidence: "high",
          reasoning: "r",
          sources: [{ url: "https://a.example/", type: "primary" }],
          claims: [
            { callout: 1, confidence: "high", reasoning: "r", citations: [{ url: "https://a.example/" }] },
          ],
        },
      },
    },
    needed: [
      ["output", "content"],
      ["output", "type"],
    ],
    enums: [
      ["output", "trust", "confidence"],
      ["run", "status"],
      ["run", "effort"],
    ],
    keep: (p) => p.output.content,
  },
  jobs: {
    route: "listJobs",
    schema: V.JobPageSchema,
    body: {
      items: [
        {
          id: "job_1",
          name: "daily",
          extract_template_name: "tpl",
          last_run_status: "SUCCESS",
          created_at: "t",
        },
      ],
      limit: 20,
      offset: 0,
      total: 1,
    },
    needed: [["items", "*", "id"]],
    enums: [["items", "*", "last_run_status"]],
    keep: (p) => ids(p.items),
  },
  "job runs": {
    route: "jobRuns",
    schema: S.JobRunListSchema,
    body: offsetPage([jobRun]),
    needed: [
      ["items", "*", "id"],
      ["items", "*", "status"],
    ],
    enums: [["items", "*", "triggered_by"]],
    keep: (p) => [ids(p.items), p.items.map((r: Any) => phaseOf("job_run", r.status))],
  },
  "job run": {
    route: "getJobRun",
    schema: V.JobRunSummarySchema,
    body: { ...jobRun, status: "RUNNING" },
    needed: [["id"], ["status"]],
    enums: [["triggered_by"]],
    keep: (p) => [p.id, phaseOf("job_run", p.status)],
  },
  artifacts: {
    route: "listArtifacts",
    schema: V.ArtifactListSchema,
    body: { items: [{ id: "art_1", type: "results", description: "rows", created_at: "t" }] },
    needed: [["items", "*", "id"]],
    enums: [["items", "*", "type"]],
    keep: (p) => ids(p.items),
  },
  "artifact download URL": {
    route: "artifactDownloadUrl",
    schema: S.ArtifactDownloadSchema,
    body: { url: "https://dl.example/a", expires_at: "t" },
    needed: [["url"]],
    enums: [],
    keep: (p) => p.url,
  },
};

/** The answer read as the client reads it on generation 2. */
function readV2(c: Case, body: unknown) {
  const side = (ROUTES[c.route] as { 2?: RouteSide })[2];
  return (side?.read ? z.preprocess(side.read, c.schema) : c.schema).safeParse(body);
}

describe("generation-2 responses are read by need", () => {
  it.each(Object.keys(CASES))("%s: the reference's shape parses", (name) => {
    const c = CASES[name];
    const parsed = readV2(c, c.body);
    expect(parsed.error).toBeUndefined();
    expect(c.keep(parsed.data)).toBeDefined();
  });

  it.each(Object.keys(CASES))("%s: damage never rejects it nor loses what a tool needs", (name) => {
    const c = CASES[name];
    const wanted = c.keep(readV2(c, c.body).data);
    fc.assert(
      fc.property(damageArb, (damage) => {
        const body = damaged(c, damage);
        const parsed = readV2(c, body);
        if (!parsed.success) {
          const issues = parsed.error.issues.map((i) => `${i.path.join(".")}: ${i.message}`);
          throw new Error(`${JSON.stringify(body)}\n→ ${issues.join("; ")}`);
        }
        expect(c.keep(parsed.data)).toEqual(wanted);
      }),
      { numRuns: 200 },
    );
  });
});

const TERMINAL = ["success", "succeeded", "completed", "error", "failed", "timeout", "canceled", "cancelled"];
const KNOWN = new Set([
  ...TERMINAL,
  ...["pending", "queued", "in_progress", "running", "started", "page", "processing", "scheduled"],
  ...["complete", "done", "finished", "warning", "failure", "fatal", "timed_out", "unknown"],
]);
const KINDS = ["task", "crawl", "item", "generation", "research", "job_run"] as const;

describe("state words (§16) of both generations", () => {
  it("a terminal word is terminal in any kind and any case; an unknown word stays running", () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...KINDS),
        fc.constantFrom(...TERMINAL),
        fc.boolean(),
        fc.string({ minLength: 1, maxLength: 20 }),
        (kind, word, upper, other) => {
          expect(phaseOf(kind, upper ? word.toUpperCase() : word)).not.toBe("running");
          if (!KNOWN.has(other.toLowerCase())) expect(phaseOf(kind, other)).toBe("running");
        },
      ),
      { numRuns: 300 },
    );
  });
});
