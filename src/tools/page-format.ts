/**
 * Shapes one task result (a fetched page) for a model: the Markdown (or HTML) body clipped at
 * `max_chars` with the `get_task` call that reads on, headers, a capped link list, and
 * screenshots as PNG image content.
 */
import { z } from "zod";
import type { TaskResult } from "../api/schemas.js";
import { clip } from "./result.js";
import type { ToolImage } from "./tool.js";

const MAX_LINKS = 50;

/** Output members describing one page (flat, all optional so handles fit too). */
export const pageShape = {
  url: z.string().optional(),
  task_id: z.string().optional(),
  status_code: z.number().optional(),
  format: z.enum(["markdown", "html", "none"]).optional().describe("What content holds"),
  content: z.string().optional(),
  total_chars: z.number().optional(),
  next_offset: z.number().optional().describe("Pass as offset to get_task to read on"),
  headers: z.record(z.string(), z.string()).optional(),
  links: z.array(z.string()).optional(),
};

export interface ShapedPage {
  structured: {
    url?: string;
    task_id?: string;
    status_code?: number;
    format: "markdown" | "html" | "none";
    content?: string;
    total_chars?: number;
    next_offset?: number;
    headers?: Record<string, string>;
    links?: string[];
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
    structured.content = part.text;
    structured.total_chars = part.total_chars;
    if (offset > 0) lines.push(`(from offset ${offset} of ${part.total_chars})`);
    // A body that opens with blank or space-only lines would start the result with one.
    lines.push("", offset === 0 ? part.text.replace(/^(?:[ \t]*\n)+/, "") : part.text);
    if (part.next_offset !== undefined) {
      structured.next_offset = part.next_offset;
      lines.push("", readOnHint(taskId, part.next_offset, maxChars));
    }
  }
  if (data.headers) {
    structured.headers = data.headers;
    lines.push("", "Headers:", ...Object.entries(data.headers).map(([k, v]) => `- ${k}: ${v}`));
  }
  if (data.links) {
    structured.links = data.links.slice(0, MAX_LINKS);
    const more = data.links.length > MAX_LINKS ? ` (first ${MAX_LINKS} of ${data.links.length})` : "";
    lines.push("", `Links${more}:`, ...structured.links.map((l) => `- ${l}`));
  }
  const images = screenshotImages(data.screenshots);
  if (images.length > 0) {
    lines.push("", `Screenshot: ${images.length} PNG image(s) attached.`);
  }
  return { structured, text: lines.join("\n"), images };
}
