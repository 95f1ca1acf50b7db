/**
 * Reading responses by need: the shapes the live service answers in (its published SDK types)
 * next to the spec's, brought to the one shape the product reads. Each function is a zod
 * `preprocess` step of a response schema in schemas.ts: it only adds the canonical member the
 * product needs when it stands somewhere else (`task.id` → `task_id`, a flat crawl → `{crawl}`)
 * and drops `null` entries from lists; every other member passes through untouched.
 * What we send is never touched here.
 */

type Obj = Record<string, unknown>;

export const isObj = (v: unknown): v is Obj => typeof v === "object" && v !== null && !Array.isArray(v);

const str = (v: unknown): string | undefined => (typeof v === "string" ? v : undefined);

/** The first string among `keys` of `o` (null and non-strings skipped). */
function firstString(o: Obj | undefined, ...keys: string[]): string | undefined {
  if (!o) return undefined;
  for (const k of keys) {
    const v = str(o[k]);
    if (v !== undefined) return v;
  }
  return undefined;
}

/** An array with its `null` entries removed; non-arrays unchanged. */
export const compact = (v: unknown): unknown => (Array.isArray(v) ? v.filter((x) => x !== null) : v);

/** `{task_id}` or `{status, task: {id, state, …}}` (or `{id}`) → `task_id` set. */
export function taskSubmission(body: unknown): unknown {
  if (!isObj(body) || str(body.task_id) !== undefined) return body;
  const id =
    firstString(isObj(body.task) ? body.task : undefined, "id", "task_id") ?? firstString(body, "id");
  return id === undefined ? body : { ...body, task_id: id };
}

/** `{batch_id, batch_size, tasks}` or the same under `batch`, or `id` for `batch_id`. */
export function batchSubmission(body: unknown): unknown {
  if (!isObj(body)) return body;
  const inner = isObj(body.batch) ? body.batch : undefined;
  const out: Obj = { ...body };
  if (str(out.batch_id) === undefined) {
    const id = firstString(inner, "batch_id", "id") ?? firstString(body, "id");
    if (id !== undefined) out.batch_id = id;
  }
  if (out.tasks === undefined && inner?.tasks !== undefined) out.tasks = inner.tasks;
  if (typeof out.batch_size !== "number" && typeof inner?.batch_size === "number")
    out.batch_size = inner.batch_size;
  return out;
}

/** `{crawl_id}` or `{id}` or `{crawl: {id}}`. */
export function crawlSubmission(body: unknown): unknown {
  if (!isObj(body) || str(body.crawl_id) !== undefined) return body;
  const id =
    firstString(isObj(body.crawl) ? body.crawl : undefined, "crawl_id", "id") ?? firstString(body, "id");
  return id === undefined ? body : { ...body, crawl_id: id };
}

/** A task listed in a batch or crawl: `{id, state}` or `{task_id, status}` → `id` and `state` set. */
function listedTask(t: unknown): unknown {
  if (!isObj(t)) return t;
  const out: Obj = { ...t };
  if (str(out.id) === undefined) {
    const id = firstString(t, "task_id");
    if (id !== undefined) out.id = id;
  }
  if (str(out.state) === undefined) {
    const state = firstString(t, "status");
    if (state !== undefined) out.state = state;
  }
  return out;
}

const listedTasks = (v: unknown): unknown => {
  const list = compact(v);
  return Array.isArray(list) ? list.map(listedTask) : list;
};

/** Batch detail: `batch_id` or `id`; `tasks` may hold nulls and `{task_id, status}` entries. */
export function batchDetail(body: unknown): unknown {
  if (!isObj(body)) return body;
  const out: Obj = { ...body, tasks: listedTasks(body.tasks ?? []) };
  if (str(out.batch_id) === undefined && str(body.id) !== undefined) out.batch_id = body.id;
  return out;
}

/** `{crawl: {status, …}}` or the flat `{crawl_id, status, completed, total, tasks}`. */
export function crawlStatus(body: unknown): unknown {
  if (!isObj(body)) return body;
  const crawl = isObj(body.crawl) ? body.crawl : body;
  const inner: Obj = { ...crawl, tasks: listedTasks(crawl.tasks ?? []) };
  if (str(inner.status) === undefined && str(inner.state) !== undefined) inner.status = inner.state;
  if (str(inner.id) === undefined && str(body.crawl_id) !== undefined) inner.id = body.crawl_id;
  return { ...body, crawl: inner };
}

/** `{tasks, next_cursor}` or `{data, pagination: {has_next, next_cursor, total}}`. */
export function taskList(body: unknown): unknown {
  if (!isObj(body)) return body;
  const page = isObj(body.pagination) ? body.pagination : undefined;
  const out: Obj = { ...body, tasks: compact(body.tasks ?? body.data ?? []) };
  if (out.next_cursor === undefined && page) {
    out.next_cursor = page.has_next === false ? null : (page.next_cursor ?? null);
  }
  if (out.total === undefined && typeof page?.total === "number") out.total = page.total;
  return out;
}

/** A paged list: `{items, …}`, or the items under `data`; null entries dropped. */
export function pagedList(body: unknown): unknown {
  if (!isObj(body)) return body;
  const page = isObj(body.pagination) ? body.pagination : undefined;
  const out: Obj = { ...body, items: compact(body.items ?? body.data ?? []) };
  if (out.total === undefined && typeof page?.total === "number") out.total = page.total;
  return out;
}

/** A bare array, or one under `agents`, `items` or `data`; null entries dropped. */
export function bareList(body: unknown): unknown {
  if (Array.isArray(body)) return compact(body);
  if (isObj(body)) {
    const list = body.agents ?? body.items ?? body.data;
    if (Array.isArray(list)) return compact(list);
  }
  return body;
}

/**
 * An agent's `output_schema`: a field map (name → fragment), a JSON Schema object (its
 * `properties` are the field map) or null (absent).
 */
export function outputSchema(v: unknown): unknown {
  if (v === null || v === undefined) return undefined;
  if (isObj(v) && typeof v.type === "string") return isObj(v.properties) ? v.properties : {};
  return v;
}

/** An agent record: `display_name` falls back to `name`. */
export function agentRecord(body: unknown): unknown {
  if (!isObj(body) || str(body.display_name) !== undefined || str(body.name) === undefined) return body;
  return { ...body, display_name: body.name };
}

/**
 * Driver knowledge as the SDK types it (`antibots`, `need_to_render`, `description`) →
 * also under the names the product reads (`antibot_systems`, `requires_js_rendering`).
 */
export function driverKnowledge(body: unknown): unknown {
  if (!isObj(body)) return body;
  const out: Obj = { ...body };
  if (out.antibot_systems == null && Array.isArray(body.antibots)) out.antibot_systems = body.antibots;
  if (out.requires_js_rendering == null && typeof body.need_to_render === "boolean")
    out.requires_js_rendering = body.need_to_render;
  return out;
}

/** Map links: `[{url, title, description}]` (the sync map) or URL strings → URL strings kept, objects kept. */
export function mapAnswer(body: unknown): unknown {
  if (!isObj(body)) return body;
  const links = Array.isArray(body.links)
    ? body.links
    : isObj(body.data) && Array.isArray(body.data.links)
      ? body.data.links
      : undefined;
  return links === undefined ? body : { ...body, links: links.filter((l) => l !== null) };
}
