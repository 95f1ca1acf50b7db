/**
 * Shapes one task result (a fetched page) for a model: the Markdown (or HTML) body clipped at
 * `max_chars` with the `get_task` call that reads on, headers, a capped link list, and
 * screenshots as PNG image content. The page reaches every model: a framework hands its model
 * the text (AI SDK, OpenAI Agents, Mastra's agent), both parts (LangChain, Gemini) or, where it
 * has no text to hand, the structured content as JSON (a Mastra result restored from JSON),
 * so the body (cut as in the text) is in both; what is not the page's own words stays in one
 * part only: headers and links in the text (their counts in `structuredContent`), the URL, ids,
 * lengths and offsets in `structuredContent` (the URL heads the text too).
 */
import { z } from "zod";
import { buildOnce } from "../api/lazy-schema.js";
import type { TaskResult } from "../api/schemas.js";
import { clip } from "./result.js";
import type { ToolImage } from "./tool.js";

const MAX_LINKS = 50;

/** Output members describing one page (flat, all optional so handles fit too). */
export const pageShape = buildOnce(() => ({
  url: z.string().optional(),
  task_id: z.string().optional(),
  status_code: z.number().optional(),
  format: z
    .enum(["markdown", "html", "none"])
    .optional()
    .describe("The body's format (the body is in the text)"),
  content: z.string().optional().describe("The body, cut at max_chars as in the text"),
  chars: z.number().optional().describe("Characters of content"),
  total_chars: z.number().optional(),
  next_offset: z.number().optional().describe("Pass as offset to get_task to read on"),
  headers_count: z.number().optional().describe("Response headers listed in the text"),
  links_count: z.number().optional().describe("Links on the page (the text lists the first 50)"),
}));

export interface ShapedPage {
  structured: {
    url?: string;
    task_id?: string;
    status_code?: number;
    format: "markdown" | "html" | "none";
    content?: string;
    chars?: number;
    total_chars?: number;
    next_offset?: number;
    headers_count?: number;
    links_count?: number;
  };
  text: string;
  images: ToolImage[];
}

function screenshotImages(shots: unknown[] | undefined): ToolImage[] {
  const images: ToolImage[] = [];
  for (const shot of shots ?? []) {
    const data =
      typeof shot === "string"
        ? shot
        : typeof shot === "object" && shot !== null
          ? ((shot as Record<string, unknown>).data ?? (shot as Record<string, unknown>).base64)
          : undefined;
    if (typeof data === "string" && data.length > 0) {
      images.push({ data: data.replace(/^data:image\/png;base64,/, ""), mimeType: "image/png" });
    }
  }
  return images;
}

export function readOnHint(taskId: string | undefined, nextOffset: number, maxChars: number): string {
  return taskId
    ? `[cut at ${nextOffset} chars; read on with get_task {"task_id":"${taskId}","offset":${nextOffset},"max_chars":${maxChars}}]`
    : `[cut at ${nextOffset} chars]`;
}

export function shapePage(result: TaskResult, maxChars: number, offset = 0): ShapedPage {
  const data = result.data ?? {};
  const taskId = result.task_id || result.task?.id;
  const body = data.markdown ?? data.html;
  const format = data.markdown !== undefined ? "markdown" : data.html !== undefined ? "html" : "none";
  const structured: ShapedPage["structured"] = { url: result.url, task_id: taskId, format };
  if (result.status_code !== undefined) structured.status_code = result.status_code;
  const lines = [`# ${result.url}${result.status_code !== undefined ? ` (HTTP ${result.status_code})` : ""}`];
  if (body !== undefined) {
    const part = clip(body, maxChars, offset);
    structured.chars = part.text.length;
    structured.total_chars = part.total_chars;
    if (offset > 0) lines.push(`(from offset ${offset} of ${part.total_chars})`);
    // A body that opens with blank or space-only lines would start the result with one.
    const shown = offset === 0 ? part.text.replace(/^(?:[ \t]*\n)+/, "") : part.text;
    structured.content = shown;
    lines.push("", shown);
    if (part.next_offset !== undefined) {
      structured.next_offset = part.next_offset;
      lines.push("", readOnHint(taskId, part.next_offset, maxChars));
    }
  }
  if (data.headers) {
    structured.headers_count = Object.keys(data.headers).length;
    lines.push("", "Headers:", ...Object.entries(data.headers).map(([k, v]) => `- ${k}: ${v}`));
  }
  if (data.links) {
    structured.links_count = data.links.length;
    const more = data.links.length > MAX_LINKS ? ` (first ${MAX_LINKS} of ${data.links.length})` : "";
    lines.push("", `Links${more}:`, ...data.links.slice(0, MAX_LINKS).map((l) => `- ${l}`));
  }
  const images = screenshotImages(data.screenshots);
  if (images.length > 0) {
    lines.push("", `Screenshot: ${images.length} PNG image(s) attached.`);
  }
  return { structured, text: lines.join("\n"), images };
}
