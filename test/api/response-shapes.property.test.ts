/**
 * Property: every documented response, with random `null`s, extra members and unknown strings
 * where the spec lists values injected anywhere except in the members a tool needs, still
 * parses — the client never answers `invalid_response` for it. And the unknown members are kept.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { z } from "zod";
import * as S from "../../src/api/schemas.js";
import { damageArb, damaged, type ShapeCase } from "../helpers/shape-mutation.js";

const task = {
  id: "t1",
  state: "pending",
  created_at: "2026-11-23T10:00:00Z",
  modified_at: "2026-11-23T10:00:01Z",
  input: { url: "https://example.com/" },
  status_url: "https://legacy.example/api/v1/tasks/t1",
  download_url: "https://legacy.example/api/v1/tasks/t1/results",
  account_name: "acct",
  api_type: "extract",
  batch_id: "b1",
  error: "boom",
  error_type: "fetch_error",
  queue: "default",
  status_code: 200,
};

interface Case extends ShapeCase {
  schema: z.ZodType;
}

const CASES: Record<string, Case> = {
  "task submission": {
    schema: S.TaskIdResponseSchema,
    body: { task_id: "t1" },
    needed: [["task_id"]],
    enums: [],
  },
  "task status": {
    schema: S.TaskStatusResponseSchema,
    body: { task },
    needed: [["task"]],
    enums: [["task", "state"]],
  },
  "task result": {
    schema: S.TaskResultSchema,
    body: {
      url: "https://example.com/",
      task_id: "t1",
      status: "success",
      task: { id: "t1", state: "success", created_at: "x", modified_at: "y", account_name: "a" },
      data: {
        html: "<p>x</p>",
        markdown: "x",
        headers: { "content-type": "text/html" },
        links: ["https://example.com/a"],
        screenshots: [],
        parsing: { title: "x" },
      },
      metadata: { query_time: "t", query_duration: 1, driver: "http" },
      status_code: 200,
    },
    needed: [],
    enums: [["status"], ["task", "state"]],
  },
  "task list": {
    schema: S.TaskListResponseSchema,
    body: { tasks: [task, { ...task, id: "t2" }], next_cursor: "c2" },
    needed: [["tasks"]],
    enums: [["tasks", "*", "state"]],
  },
  "batch submission": {
    schema: S.BatchSubmissionSchema,
    body: { batch_id: "b1", batch_size: 2, tasks: [task] },
    needed: [["batch_id"]],
    enums: [["tasks", "*", "state"]],
  },
  "batch progress": {
    schema: S.BatchProgressSchema,
    body: { completed_count: 1, total: 2, progress: 0.5, completed: false },
    needed: [],
    enums: [],
  },
  "batch detail": {
    schema: S.BatchDetailSchema,
    body: {
      batch_id: "b1",
      tasks: [
        { id: "t1", state: "success" },
        { id: "t2", state: "error" },
      ],
    },
    needed: [["tasks", "*", "id"]],
    enums: [["tasks", "*", "state"]],
  },
  "batch list": {
    schema: S.BatchListResponseSchema,
    body: { batches: [{ batch_id: "b1", batch_size: 2 }] },
    needed: [["batches"]],
    enums: [],
  },
  serp: {
    schema: S.SerpResponseSchema,
    body: {
      task_id: "t1",
      url: "https://search.example/?q=x",
      status: "success",
      data: {
        html: "<p/>",
        markdown: "x",
        links: ["https://a.example"],
        headers: { a: "b" },
        parsing: {
          status: "success",
          entities: { organic: [{ position: 1, title: "A", url: "https://a" }] },
        },
        redirects: [{ status_code: 301, url: "https://b" }],
      },
      metadata: { agent: "x", driver: "http", query_duration: 1, query_time: "t", tag: "x" },
      pagination: { next_page_params: { page: 2 } },
      status_code: 200,
      warnings: ["w"],
    },
    needed: [],
    enums: [["status"], ["data", "parsing", "status"]],
  },
  "domain health": {
    schema: S.DomainHealthResponseSchema,
    body: {
      domains: [
        {
          domain: "example.com",
          status: "healthy",
          success_rate: 0.9,
          consecutive_bad_windows: 0,
          history: [{ hours_ago: 1, window_start: "a", window_end: "b", status: "healthy", success_rate: 1 }],
        },
      ],
    },
    needed: [["domains", "*", "domain"]],
    enums: [["domains", "*", "status"]],
  },
  "domain driver": {
    schema: S.DriverKnowledgeSchema,
    body: { driver: "http", antibot_systems: ["x"], requires_js_rendering: false },
    needed: [],
    enums: [["driver"]],
  },
  "agent list": {
    schema: (() => {
      // listAgents parses an array of records (client.ts)
      return S.AgentRecordSchema.array();
    })(),
    body: [
      {
        name: "a1",
        is_public: true,
        display_name: "A1",
        managed_by: "vendor",
        description: "d",
        vertical: "v",
        entity_type: "e",
        domain: "x.com",
      },
    ],
    needed: [["*", "name"]],
    enums: [["*", "managed_by"]],
  },
  "agent detail": {
    schema: S.AgentDetailSchema,
    body: {
      name: "a1",
      is_public: true,
      display_name: "A1",
      managed_by: "community",
      description: "d",
      output_schema: { title: { type: "string", description: "T" } },
      input_properties: [
        {
          name: "query",
          required: true,
          type: "string",
          description: "Q",
          rules: ["min_length:1"],
          examples: ["x"],
          default: null,
          is_localization_param: false,
          is_pagination_param: false,
        },
      ],
      feature_flags: { is_localization_supported: true, is_pagination_supported: false },
    },
    needed: [["name"], ["input_properties", "*", "name"]],
    enums: [["managed_by"], ["input_properties", "*", "type"]],
  },
  "template versions": {
    schema: S.TemplateVersionListSchema,
    body: {
      items: [
        {
          id: "v1",
          name: "tpl",
          version_number: 1,
          created_at: "t",
          input_schema: { type: "object" },
          output_schema: { type: "object" },
          metadata: { description: "d", display_name: "D", tags: ["x"], vertical: "v" },
          samples: [{ input: {}, output: {} }],
        },
      ],
      limit: 20,
      offset: 0,
      total: 1,
    },
    needed: [["items", "*", "version_number"]],
    enums: [],
  },
  "crawl submission": {
    schema: S.CrawlIdResponseSchema,
    body: { crawl_id: "c1" },
    needed: [["crawl_id"]],
    enums: [],
  },
  "crawl status": {
    schema: S.CrawlStatusSchema,
    body: {
      crawl: {
        status: "running",
        completed: 1,
        total: 2,
        tasks: [{ id: "t1", url: "https://example.com/", state: "success" }],
        error: "e",
      },
    },
    needed: [["crawl"], ["crawl", "tasks", "*", "id"]],
    enums: [
      ["crawl", "status"],
      ["crawl", "tasks", "*", "state"],
    ],
  },
  "job runs": {
    schema: S.JobRunListSchema,
    body: {
      items: [
        {
          id: "r1",
          job_id: "j1",
          created_at: "t",
          status: "SUCCEEDED",
          triggered_by: "schedule",
          started_at: "t",
          finished_at: "t",
          input_count: 1,
          result_count: 1,
          artifact_ids: ["a1"],
        },
      ],
      limit: 20,
      offset: 0,
      total: 1,
    },
    needed: [["items", "*", "id"]],
    enums: [
      ["items", "*", "status"],
      ["items", "*", "triggered_by"],
    ],
  },
  "artifact URL": {
    schema: S.ArtifactDownloadSchema,
    body: { url: "https://dl.example/a", expires_at: "t" },
    needed: [["url"]],
    enums: [],
  },
};

describe("responses are read by need", () => {
  it.each(Object.keys(CASES))("%s: the documented response parses", (name) => {
    const c = CASES[name];
    expect(c.schema.safeParse(c.body).success).toBe(true);
  });

  it.each(Object.keys(CASES))(
    "%s: random nulls, extra members and unknown enum strings never reject",
    (name) => {
      const c = CASES[name];
      fc.assert(
        fc.property(damageArb, (damage) => {
          const body = damaged(c, damage);
          const parsed = c.schema.safeParse(body);
          if (!parsed.success) {
            throw new Error(
              `${JSON.stringify(body)}\n→ ${parsed.error.issues.map((i) => `${i.path.join(".")}: ${i.message}`).join("; ")}`,
            );
          }
          // Members the schema does not know are kept, top level included.
          if (typeof body === "object" && body !== null && !Array.isArray(body)) {
            for (const k of Object.keys(body).filter((k) => k.startsWith("x_new_")))
              expect((parsed.data as Record<string, unknown>)[k]).toEqual(
                (body as Record<string, unknown>)[k],
              );
          }
        }),
        { numRuns: 150 },
      );
    },
  );

  it("null reads as absent", () => {
    const parsed = S.TaskStatusResponseSchema.parse({ task: { ...task, error: null, state: null } });
    expect(parsed.task.error).toBeUndefined();
    expect(parsed.task.state).toBeUndefined();
  });
});
