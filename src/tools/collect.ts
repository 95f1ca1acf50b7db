/**
 * Reading the pages of a batch or crawl into one result: fetch the results of finished tasks a
 * few at a time (the client's rate limiter paces them) until `max_chars` is spent; the rest are
 * listed with their task ids for `get_task`.
 */

import { z } from "zod";
import type { WebDataClient } from "../api/client.js";
import { ApiError } from "../api/errors.js";
import { forEachLimit } from "../async/pool.js";
import { succeeded } from "../async/states.js";
import { clip, estimateTokens, TOKEN_CAP } from "./result.js";

/** One task of a batch or crawl, as listed in `structuredContent` (its body is in the text only). */
export const taskItem = z.object({
  task_id: z.string(),
  url: z.string().optional(),
  state: z.string(),
  status_code: z.number().optional(),
  chars: z.number().optional().describe("Characters of its body in the text"),
  total_chars: z.number().optional(),
  error: z.string().optional(),
});
/** One collected task: the listed members and, for the text, its body. */
export type TaskItem = z.infer<typeof taskItem> & { content?: string };

/** Items as `structuredContent` lists them: bodies are in the text, not twice. */
export const listedItems = (items: readonly TaskItem[]): z.infer<typeof taskItem>[] =>
  items.map(({ content, ...rest }) => (content === undefined ? rest : { ...rest, chars: content.length }));

export interface TaskRef {
  id: string;
  state: string;
  url?: string;
  error?: string;
}

const CONCURRENCY = 6;
/** Below this many characters left, no further page is fetched. */
const MIN_PAGE_CHARS = 200;

/** Fills `content` of successful tasks, in order, while the budget lasts. */
export async function collectPages(
  client: WebDataClient,
  refs: readonly TaskRef[],
  maxChars: number,
  signal: AbortSignal,
): Promise<{ items: TaskItem[]; unread: number }> {
  const items: TaskItem[] = refs.map((r) => {
    const item: TaskItem = { task_id: r.id, state: r.state };
    if (r.url) item.url = r.url;
    if (r.error) item.error = r.error;
    return item;
  });
  const readable = items.filter((i) => succeeded("item", i.state));
  // An even share per page, so one long page does not crowd out the rest.
  const share = Math.max(MIN_PAGE_CHARS, Math.floor(maxChars / Math.max(1, readable.length)));
  let budget = maxChars;
  let tokens = TOKEN_CAP;
  const queue = readable.slice(0, Math.max(1, Math.floor(maxChars / MIN_PAGE_CHARS)));
  const more = () => budget >= MIN_PAGE_CHARS && tokens >= MIN_PAGE_CHARS / 4 && !signal.aborted;
  await forEachLimit(
    queue,
    CONCURRENCY,
    async (item) => {
      let result: Awaited<ReturnType<WebDataClient["getTaskResults"]>>;
      try {
        result = await client.getTaskResults(item.task_id, { signal });
      } catch (error) {
        // One unreadable page must not sink the others; an abort or a dead key ends it all.
        if (!(error instanceof ApiError) || error.code === "aborted" || error.code === "unauthorized")
          throw error;
        item.error = `results not readable: ${error.message}`;
        return;
      }
      const body = result.data?.markdown ?? result.data?.html ?? "";
      const part = clip(body, Math.min(share, budget), 0, tokens);
      budget -= part.text.length;
      tokens -= estimateTokens(part.text);
      item.url ??= result.url;
      if (result.status_code !== undefined) item.status_code = result.status_code;
      item.content = part.text;
      item.total_chars = part.total_chars;
    },
    more,
  );
  const unread = readable.filter((i) => i.content === undefined && i.error === undefined).length;
  return { items, unread };
}

/** Markdown listing of collected items with the read-on hint for cut or unread pages. */
export function itemsMarkdown(items: readonly TaskItem[]): string {
  const out: string[] = [];
  items.forEach((item, n) => {
    const head = `## ${n + 1}. ${item.url ?? "(url unknown)"} — ${item.state}${
      item.status_code !== undefined ? `, HTTP ${item.status_code}` : ""
    } (task_id ${item.task_id})`;
    out.push(head);
    if (item.error) out.push(`Error: ${item.error}`);
    if (item.content !== undefined) {
      out.push(item.content);
      if (item.total_chars !== undefined && item.total_chars > item.content.length) {
        out.push(
          `[cut at ${item.content.length} of ${item.total_chars} chars; read on with get_task {"task_id":"${item.task_id}","offset":${item.content.length}}]`,
        );
      }
    } else if (item.state === "success") {
      out.push(`[not included; read with get_task {"task_id":"${item.task_id}"}]`);
    }
    out.push("");
  });
  return out.join("\n");
}
