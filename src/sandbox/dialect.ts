/**
 * The sandbox's `live` dialect: the same service, answering in the shapes the live service's
 * published SDK types show instead of the spec's. Chosen for the whole sandbox
 * (`startSandbox({dialect: "live"})`, `web-data-mcp sandbox --dialect live`) or per request
 * with the header `X-Sandbox-Dialect: live` (or `spec`). The shapes below are the `live` member
 * of the routes' sides (routing.ts: each route's answer is built once, in its dialect); the
 * error bodies are chosen where they are made (`errorResponse`, http.ts). Requests are read
 * the same in both dialects: what a client sends stays what the spec documents.
 *
 * What changes (each a variant the client must accept):
 * - async submissions `{task_id}` → `{status, task: {id, state: "queued", …}}`; batch
 *   submissions `{batch_id, …}` → `{status, batch: {id, batch_size, tasks}}`;
 * - task records: `pending` → `queued` at first, then `in_progress`; absent members → `null`;
 *   an extra member;
 * - the task list `{tasks, next_cursor}` → `{data, pagination: {has_next, next_cursor, total}}`;
 * - batch progress without `total` and `completed`; batch detail with `id` and a `null` task;
 * - crawl status flat: `{crawl_id, status, completed, total, tasks: [{task_id, status}]}`, with
 *   `queued` before the first page;
 * - agents: `managed_by` the operator's name or null, `description` null, input properties
 *   without `rules`/`description`, `output_schema` as a JSON Schema object, partial
 *   `feature_flags`;
 * - template versions with partial `metadata`; job runs with upper-case statuses, null
 *   timestamps and counts; SERP with an unknown member in `data`, null `warnings` and parsed
 *   entities keyed by type (`OrganicResult[]`, `RelatedSearch[]`, with `entities_count`);
 * - error bodies `{detail: "…"}` (401, 404), `{status: "failed", msg}` (400, 402, 429),
 *   `{success: "false", task_id, message}` (500), `{message}` (other 5xx); 422 unchanged;
 * - SDK-only generation-1 routes (§18 of web-data-api-v2.md): sync `POST /v1/map`, `GET /v1/crawl`,
 *   `DELETE /v1/crawl/{id}` (routes/crawl.ts); driver knowledge with `antibots`, `need_to_render`
 *   and `description` (routes/health.ts).
 */
import type { Shape } from "./routing.js";

export type Dialect = "spec" | "live";
export const DIALECT_HEADER = "X-Sandbox-Dialect";
export const DIALECTS: readonly Dialect[] = ["spec", "live"];

/** The operator's own name, where the spec says `vendor`. */
export const LIVE_OPERATOR = "Web Data Inc.";

type Obj = Record<string, any>;

const isObj = (v: unknown): v is Obj => typeof v === "object" && v !== null && !Array.isArray(v);

/** Spec task state → live task state; `pending` is `queued` until the task is a little old. */
function liveTaskState(task: Obj): string {
  if (task.state !== "pending") return task.state;
  const age = Date.now() - Date.parse(task.created_at ?? "");
  return Number.isFinite(age) && age > 100 ? "in_progress" : "queued";
}

export function liveTask(task: unknown): unknown {
  if (!isObj(task)) return task;
  return {
    ...task,
    state: liveTaskState(task),
    modified_at: task.state === "pending" ? null : (task.modified_at ?? null),
    error: task.error ?? null,
    error_type: task.error_type ?? null,
    status_code: task.status_code ?? null,
    download_url: task.download_url ?? null,
    queue: null,
    priority: { level: "normal" },
  };
}

export const taskSubmission: Shape = (b) =>
  isObj(b) && typeof b.task_id === "string"
    ? {
        status: "ok",
        task: { id: b.task_id, state: "queued", created_at: new Date().toISOString(), error: null },
      }
    : b;

export const batchSubmission: Shape = (b) => {
  if (!isObj(b) || typeof b.batch_id !== "string") return b;
  const { batch_id, batch_size, tasks, ...rest } = b;
  return { ...rest, status: "ok", batch: { id: batch_id, batch_size, tasks: (tasks ?? []).map(liveTask) } };
};

const CRAWL_TASK_STATUS: Record<string, string> = {
  pending: "pending",
  success: "completed",
  error: "failed",
};

export const crawlStatus: Shape = (b, { path }) => {
  if (!isObj(b) || !isObj(b.crawl)) return b;
  const { tasks, status, ...crawl } = b.crawl;
  const list = Array.isArray(tasks) ? tasks : [];
  return {
    crawl_id: path.split("/").pop(),
    ...crawl,
    status: status === "running" && list.length === 0 ? "queued" : status,
    tasks: list.map((t: Obj) => ({
      task_id: t.id,
      url: t.url ?? null,
      status: CRAWL_TASK_STATUS[t.state] ?? t.state,
    })),
    error: crawl.error ?? null,
  };
};

const liveAgentRecord = (a: unknown, i = 0): unknown => {
  if (!isObj(a)) return a;
  const managed = a.managed_by === "vendor" ? LIVE_OPERATOR : (a.managed_by ?? null);
  return {
    ...a,
    managed_by: i % 5 === 4 ? null : managed,
    description: i % 3 === 2 ? null : (a.description ?? null),
    vertical: a.vertical ?? null,
  };
};

export const agentDetail: Shape = (b) => {
  if (!isObj(b)) return b;
  const out: Obj = { ...(liveAgentRecord(b) as Obj) };
  if (Array.isArray(b.input_properties)) {
    out.input_properties = b.input_properties.map((p: Obj) => {
      const { rules: _rules, description, ...rest } = p;
      return { ...rest, ...(p.required ? { description } : {}), examples: p.examples ?? null };
    });
  }
  if (isObj(b.output_schema)) out.output_schema = { type: "object", properties: b.output_schema };
  else out.output_schema = null;
  if (isObj(b.feature_flags)) {
    out.feature_flags = { is_localization_supported: b.feature_flags.is_localization_supported ?? null };
  }
  return out;
};

const JOB_STATUS: Record<string, string> = { SUCCEEDED: "SUCCESS", PENDING: "RUNNING" };

export const jobRuns: Shape = (b) => {
  if (!isObj(b) || !Array.isArray(b.items)) return b;
  return {
    ...b,
    items: b.items.map((r: Obj) => ({
      ...r,
      status: JOB_STATUS[r.status] ?? r.status,
      started_at: r.started_at ?? null,
      finished_at: r.finished_at ?? null,
      result_count: r.result_count ?? null,
      artifact_ids: r.artifact_ids ?? null,
    })),
  };
};

export const templateVersions: Shape = (b) => {
  if (!isObj(b) || !Array.isArray(b.items)) return b;
  return {
    ...b,
    items: b.items.map((v: Obj) => ({
      ...v,
      metadata: { display_name: v.metadata?.display_name ?? null },
      samples: v.samples ?? null,
    })),
  };
};

export const taskResult: Shape = (b) =>
  isObj(b) ? { ...b, task: isObj(b.task) ? liveTask(b.task) : null, status_code: b.status_code ?? null } : b;

/** Parsed SERP entities as the SDK's examples show them (§3.4): arrays keyed by entity type name. */
function typedEntities(entities: unknown): unknown {
  if (!isObj(entities) || !Array.isArray(entities.organic)) return entities;
  const OrganicResult = entities.organic.map((o: Obj) => ({
    entity_type: "OrganicResult",
    ...o,
    cleaned_domain: typeof o.url === "string" && URL.canParse(o.url) ? new URL(o.url).hostname : null,
  }));
  const RelatedSearch = (entities.related_searches ?? []).map((r: Obj, i: number) => ({
    query: r.query,
    url: null,
    position: String(i + 1),
  }));
  return { OrganicResult, RelatedSearch };
}

export const serp: Shape = (b) => {
  if (!isObj(b)) return b;
  const data = isObj(b.data) ? { ...b.data, knowledge_panel: null, related_questions: [] } : b.data;
  if (isObj(data) && isObj(data.parsing)) {
    const entities = typedEntities(data.parsing.entities);
    const counts = isObj(entities)
      ? Object.fromEntries(Object.entries(entities).map(([k, v]) => [k, Array.isArray(v) ? v.length : 1]))
      : {};
    data.parsing = {
      ...data.parsing,
      entities,
      entities_count: counts,
      total_entities_count: Object.values(counts).reduce((a: number, n) => a + (n as number), 0),
    };
  }
  return { ...b, data, warnings: b.warnings ?? null, debug: null };
};

export const health: Shape = (b) =>
  isObj(b) && Array.isArray(b.domains)
    ? {
        ...b,
        domains: b.domains.map((d: Obj) => ({ ...d, history: d.history ?? null, region: null })),
      }
    : b;

/** `{tasks, next_cursor}` → the SDK's cursor page `{data, pagination: {has_next, next_cursor, total}}`. */
export const taskPage = (b: Obj, extra: Obj = {}) => ({
  data: (b.tasks ?? []).map(liveTask),
  pagination: { has_next: Boolean(b.next_cursor), next_cursor: b.next_cursor ?? null, total: null, ...extra },
});

/** A task status `{task}` with the live task record. */
export const taskStatus: Shape = (b) => (isObj(b) ? { ...b, task: liveTask(b.task) } : b);

/** The task list as the SDK's cursor page, with the limit asked for. */
export const taskList: Shape = (b, { query }) =>
  isObj(b) ? taskPage(b, { limit: Number(query.get("limit") ?? 0) || null }) : b;

/** Batch progress without `total` and `completed`. */
export const batchProgress: Shape = (b) => {
  if (!isObj(b)) return b;
  const { total: _total, completed: _completed, ...rest } = b;
  return rest;
};

/** Batch detail with `id` and a `null` task. */
export const batchDetail: Shape = (b) => {
  if (!isObj(b)) return b;
  const { batch_id, ...rest } = b;
  return { ...rest, id: batch_id, tasks: [...(b.tasks ?? []).map(liveTask), null] };
};

export const crawlStarted: Shape = (b) => (isObj(b) ? { ...b, status: "queued", error: null } : b);

export const agentList: Shape = (b) => (Array.isArray(b) ? b.map((a, i) => liveAgentRecord(a, i)) : b);

export const downloadUrl: Shape = (b) => (isObj(b) ? { ...b, expires_at: null } : b);

/**
 * The live error body for a spec `{error: {code, message}}` body, as the SDK's bodies show them
 * (web-data-api-v2.md §2.5): `{detail}` (401, 404), `{status: "failed", msg}` (402, 429; 400
 * with the validation code), `{success: "false", task_id, message}` (500), `{message}` (other
 * 5xx). 422 is unchanged.
 */
export function liveError(status: number, body: unknown): unknown {
  if (status === 422 || !isObj(body) || !isObj(body.error)) return body;
  const message = body.error.message;
  if (status === 401 || status === 404) return { detail: message };
  if (status === 400) {
    return {
      status: "failed",
      error: "PARAMETERS_FAILED_JSON_SCHEMA_VALIDATION_ERROR",
      msg: message,
      details: { schema_validation_errors: [] },
    };
  }
  if (status === 402 || status === 429) return { status: "failed", msg: message };
  if (status === 500) return { success: "false", task_id: crypto.randomUUID(), message };
  if (status > 500) return { message };
  return body;
}

/** The dialect of one request: the header, else the sandbox's own. */
export function dialectOf(header: string | undefined, fallback: Dialect): Dialect {
  const asked = header?.trim().toLowerCase();
  return asked === "live" || asked === "spec" ? asked : fallback;
}
