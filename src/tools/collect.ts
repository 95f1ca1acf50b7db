/**
 * Reading the pages of a batch or crawl into one result: the first successful page's body inline
 * (clipped at `max_chars`), every other successful page as a `resource_link` (`webdata://task/…`,
 * with its size) that `resources/read` or `get_task` reads, so a result stays small however many
 * pages there are. The results are fetched a few at a time (the client's rate limiter paces them).
 */
import { z } from "zod";
import type { WebDataClient } from "../api/client.js";
import { ApiError } from "../api/errors.js";
import { buildOnce } from "../api/lazy-schema.js";
import { forEachLimit } from "../async/pool.js";
import { succeeded } from "../async/states.js";
import { pageUri, type ToolLink } from "./resources.js";
import { clip, plural } from "./result.js";

/** One task of a batch or crawl, as listed in `structuredContent` (its body inline, or a link). */
export const taskItem = buildOnce(() =>
  z.object({
    task_id: z.string(),
    url: z.string().optional(),
    state: z.string(),
    status_code: z.number().optional(),
    content: z.string().optional().describe("The inline page's body, as in the text"),
    chars: z.number().optional().describe("Characters of content"),
    total_chars: z.number().optional(),
    error: z.string().optional(),
  }),
);
/** One task as `structuredContent` lists it. */
type ListedItem = z.infer<ReturnType<typeof taskItem>>;
/** One collected task: the listed members and, for the text or its link, its body's type. */
export type TaskItem = ListedItem & { mimeType?: string };

/**
 * Items as `structuredContent` lists them: the inline page's body (the one in the text, for a
 * framework that hands its model the structured content only); the others are links in both.
 */
export const listedItems = (items: readonly TaskItem[]): ListedItem[] =>
  items.map(({ mimeType: _m, ...rest }) =>
    rest.content === undefined ? rest : { ...rest, chars: rest.content.length },
  );

/** `structuredContent`'s count of pages given as links. */
export const linkedShape = buildOnce(() => ({
  linked: z
    .number()
    .optional()
    .describe("Pages not inline: resource_link items (webdata://task/…), also read with get_task"),
}));

export interface TaskRef {
  id: string;
  state: string;
  url?: string;
  error?: string;
}

const CONCURRENCY = 6;

/** Fills `content` of the first successful task and the size of every other one. */
export async function collectPages(
  client: WebDataClient,
  refs: readonly TaskRef[],
  maxChars: number,
  signal: AbortSignal,
): Promise<TaskItem[]> {
  const items: TaskItem[] = refs.map((r) => {
    const item: TaskItem = { task_id: r.id, state: r.state };
    if (r.url) item.url = r.url;
    if (r.error) item.error = r.error;
    return item;
  });
  const readable = items.filter((i) => succeeded("item", i.state));
  const bodies = new Map<TaskItem, string>();
  await forEachLimit(readable, CONCURRENCY, async (item) => {
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
    const data = result.data ?? {};
    const body = data.markdown ?? data.html ?? "";
    item.url ??= result.url;
    if (result.status_code !== undefined) item.status_code = result.status_code;
    item.total_chars = body.length;
    item.mimeType = data.markdown === undefined && data.html !== undefined ? "text/html" : "text/markdown";
    bodies.set(item, body);
  });
  // The first page read is inline (an unreadable one before it does not leave the text empty).
  const first = readable.find((item) => bodies.has(item));
  if (first) first.content = clip(bodies.get(first) ?? "", maxChars).text;
  return items;
}

/** Successful pages not inline, as `resource_link` items. */
export function pageLinks(items: readonly TaskItem[], of: string): ToolLink[] {
  return items.flatMap((item, n) =>
    item.content === undefined && item.total_chars !== undefined && !item.error
      ? [
          {
            uri: pageUri(item.task_id),
            name: item.url ?? item.task_id,
            description: `Page ${n + 1} of ${of}, ${plural(item.total_chars, "char")} of ${item.mimeType === "text/html" ? "HTML" : "Markdown"}`,
            mimeType: item.mimeType ?? "text/markdown",
          },
        ]
      : [],
  );
}

/** The pages part of a batch or crawl result: the listing, the links, and their count. */
export function pagesPart(items: readonly TaskItem[], of: string) {
  const links = pageLinks(items, of);
  return {
    markdown: itemsMarkdown(items),
    links,
    pages: listedItems(items),
    ...(links.length > 0 ? { linked: links.length } : {}),
  };
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
    } else if (item.total_chars !== undefined && !item.error) {
      // The URI in the text too: LangChain and Mastra do not hand a resource_link to the model.
      out.push(
        `[${plural(item.total_chars, "char")} at ${pageUri(item.task_id)}; or get_task with its task_id]`,
      );
    } else if (succeeded("item", item.state) && !item.error) {
      out.push(`[not included; read with get_task {"task_id":"${item.task_id}"}]`);
    }
    out.push("");
  });
  return out.join("\n");
}
