/**
 * `get_task` with no id: the recent tasks (`GET /v2/tasks`, generation 1 `/v1/tasks`) or crawls
 * (`GET /v2/crawl`, generation 1 `/v1/crawl`, §8 and §18), newest first as the service lists
 * them, with the cursor that reads on. Over HTTP under the server's key the client lists only the
 * principal's own (`src/server/ownership.ts`).
 */
import type { ToolContext, ToolResult } from "./tool.js";

/** Checked against get_task's output schema at run time (runTool). */
type Out = any;

export const LIST_DEFAULT = 20;

/** No id: recent tasks, newest first as the service lists them (`GET /v1/tasks`). */
export async function listTasks(
  cursor: string | undefined,
  limit: number,
  ctx: ToolContext,
): Promise<ToolResult<Out>> {
  const list = await ctx.client.listTasks({ cursor, limit }, { signal: ctx.signal });
  const tasks = list.tasks.slice(0, limit).flatMap((t) => {
    if (t.id === undefined) return [];
    const row: Record<string, unknown> = { task_id: t.id, state: t.state ?? "unknown" };
    const input = (t as { input?: { url?: unknown } }).input;
    const url = t.url ?? (typeof input?.url === "string" ? input.url : undefined);
    if (url !== undefined) row.url = url;
    if (t.created_at !== undefined) row.created_at = t.created_at;
    if (t.error !== undefined) row.error = t.error;
    return [row];
  });
  const lines = [`# ${tasks.length} recent task(s)${cursor ? " (continued)" : ""}`];
  lines.push("Read one with get_task and its task_id.", "");
  for (const t of tasks) {
    const extra = [t.url, t.created_at, t.error].filter((x) => typeof x === "string");
    lines.push(`- ${t.task_id}: ${t.state}${extra.length ? ` (${extra.join(", ")})` : ""}`);
  }
  if (list.next_cursor)
    lines.push("", `[more: get_task ${JSON.stringify({ cursor: list.next_cursor, limit })}]`);
  return {
    structured: {
      status: "done",
      tasks,
      ...(list.next_cursor ? { next_cursor: list.next_cursor } : {}),
      ...(list.total !== undefined ? { total: list.total } : {}),
    },
    text: lines.join("\n"),
  };
}

/** No id, `list: "crawls"`: recent crawls with their state and page counts. */
export async function listCrawls(
  cursor: string | undefined,
  limit: number,
  ctx: ToolContext,
): Promise<ToolResult<Out>> {
  const list = await ctx.client.listCrawls({ cursor, limit }, { signal: ctx.signal });
  const crawls = list.data.slice(0, limit).map((c) => {
    const row: Record<string, unknown> = { crawl_id: c.crawl_id, status: c.status };
    for (const key of ["url", "completed", "total", "created_at"] as const)
      if (c[key] !== undefined) row[key] = c[key];
    return row;
  });
  const lines = [`# ${crawls.length} recent crawl(s)${cursor ? " (continued)" : ""}`];
  lines.push("Read one with get_task and its crawl_id; stop a running one with cancel.", "");
  for (const c of crawls) {
    const pages = c.total !== undefined ? ` ${c.completed ?? 0}/${c.total} pages` : "";
    lines.push(`- ${c.crawl_id}: ${c.status}${pages}${c.url ? ` (${c.url})` : ""}`);
  }
  const next = list.pagination?.next_cursor;
  if (next) lines.push("", `[more: get_task ${JSON.stringify({ list: "crawls", cursor: next, limit })}]`);
  return {
    structured: { status: "done", crawls, ...(next ? { next_cursor: next } : {}) },
    text: lines.join("\n"),
  };
}
