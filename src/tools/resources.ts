/**
 * `webdata://` resources: the bulky parts of tool results (crawl and batch pages beyond the
 * first, job artifacts, media files) handed out as `resource_link` items and served by
 * `resources/read`. A URI names upstream work by id, so any replica re-reads it from the API and
 * nothing is held in memory; text is paged with the tools' own cut rule (`clip`, `max_chars`),
 * the next offset in the content's `_meta` ("web-data/page") and in a last text line.
 */
import { UriTemplate } from "@modelcontextprotocol/sdk/shared/uriTemplate.js";
import type { WebDataClient } from "../api/client.js";
import type { CallOptions } from "../api/client-types.js";
import { clip, DEFAULT_MAX_CHARS } from "./result.js";

/** A `resource_link` content item a tool returns. */
export interface ToolLink {
  uri: string;
  name: string;
  /** One line: what it is and its size. */
  description: string;
  mimeType: string;
}

export interface ResourceTemplateInfo {
  name: string;
  uriTemplate: string;
  description: string;
  mimeType?: string;
}

/** Largest file `resources/read` returns as a blob (the `download_media` limit). */
export const MAX_BLOB_BYTES = 5_000_000;
const MAX_TEXT_FILE_BYTES = 5_000_000;

/** The paging query every text resource takes; read with URLSearchParams (any order). */
const PAGING = "{?offset,max_chars}";
const PAGE = new UriTemplate("webdata://task/{task_id}");
const MEDIA = new UriTemplate("webdata://media/{task_id}");
const ARTIFACT = new UriTemplate("webdata://run/{run_id}/artifact/{artifact_id}");

export const RESOURCE_TEMPLATES: readonly ResourceTemplateInfo[] = [
  {
    name: "page",
    uriTemplate: `${PAGE}${PAGING}`,
    description:
      "A fetched page's body (a task of extract_page, extract_batch or crawl_site), paged: max_chars from offset",
    mimeType: "text/markdown",
  },
  {
    name: "media",
    uriTemplate: `${MEDIA}${PAGING}`,
    description: "A file download_media fetched: text paged like a page, anything else as a blob (≤ 5 MB)",
  },
  {
    name: "artifact",
    uriTemplate: `${ARTIFACT}${PAGING}`,
    description: "A job run's artifact (JSONL), paged: max_chars from offset",
    mimeType: "application/jsonl",
  },
];

/**
 * The text with every link's URI in it: a link the text does not name yet gets one line (its name,
 * description and URI). Frameworks that hand their model the text only (LangChain as its docs
 * configure it, Mastra) still show the model where the bulky part is; the body is not repeated.
 */
export function withLinksInText(text: string, links: readonly ToolLink[] = []): string {
  const missing = links.filter((link) => !text.includes(link.uri));
  if (missing.length === 0) return text;
  return [text, "", ...missing.map((l) => `[${l.name}: ${l.description}; read it as ${l.uri}]`)].join("\n");
}

export const pageUri = (taskId: string): string => PAGE.expand({ task_id: taskId });
export const mediaUri = (taskId: string): string => MEDIA.expand({ task_id: taskId });
export const artifactUri = (runId: string, artifactId: string): string =>
  ARTIFACT.expand({ run_id: runId, artifact_id: artifactId });

/** What a URI names, its paging read from the query; undefined for a URI that is not ours. */
export type ResourceRef =
  | { kind: "page"; taskId: string; offset: number; maxChars: number }
  | { kind: "media"; taskId: string; offset: number; maxChars: number }
  | { kind: "artifact"; runId: string; artifactId: string; offset: number; maxChars: number };

const one = (v: string | string[] | undefined): string | undefined => (Array.isArray(v) ? v[0] : v);

/** A query number: absent → fallback; not a whole number in range → undefined (the URI is not ours). */
function count(s: string | null, fallback: number, min: number, max: number) {
  if (s === null || s === "") return fallback;
  if (!/^\d+$/.test(s)) return undefined;
  const n = Number(s);
  return n >= min && n <= max ? n : undefined;
}

export function parseResourceUri(uri: string): ResourceRef | undefined {
  const cut = uri.indexOf("?");
  const path = cut < 0 ? uri : uri.slice(0, cut);
  const query = new URLSearchParams(cut < 0 ? "" : uri.slice(cut + 1));
  if ([...query.keys()].some((k) => k !== "offset" && k !== "max_chars")) return undefined;
  const offset = count(query.get("offset"), 0, 0, Number.MAX_SAFE_INTEGER);
  const maxChars = count(query.get("max_chars"), DEFAULT_MAX_CHARS, 200, 40_000);
  if (offset === undefined || maxChars === undefined) return undefined;
  for (const [kind, template] of [
    ["page", PAGE],
    ["media", MEDIA],
    ["artifact", ARTIFACT],
  ] as const) {
    const vars = template.match(path);
    if (!vars) continue;
    const ids = [vars.task_id, vars.run_id, vars.artifact_id].map(one);
    if (ids.some((id) => id === "")) return undefined;
    const [taskId, runId, artifactId] = ids as string[];
    if (kind === "artifact") return { kind, runId, artifactId, offset, maxChars };
    return { kind, taskId, offset, maxChars };
  }
  return undefined;
}

/** The canonical URI of what a ref names (no paging): what ownership is claimed for. */
export function baseUri(ref: ResourceRef): string {
  if (ref.kind === "page") return pageUri(ref.taskId);
  if (ref.kind === "media") return mediaUri(ref.taskId);
  return artifactUri(ref.runId, ref.artifactId);
}

export type ResourceContent =
  | { uri: string; mimeType: string; text: string; _meta?: Record<string, unknown> }
  | { uri: string; mimeType: string; blob: string };

/** Paging of one text read, as `_meta["web-data/page"]`. */
export interface PageMeta {
  offset: number;
  chars: number;
  total_chars: number;
  next_offset?: number;
  next_uri?: string;
}

function pagedText(uri: string, ref: ResourceRef, body: string, mimeType: string): ResourceContent {
  const part = clip(body, ref.maxChars, ref.offset);
  const page: PageMeta = { offset: ref.offset, chars: part.text.length, total_chars: part.total_chars };
  let text = part.text;
  if (part.next_offset !== undefined) {
    const next = new URL(uri);
    next.searchParams.set("offset", String(part.next_offset));
    page.next_offset = part.next_offset;
    page.next_uri = next.toString();
    text += `\n\n[cut at ${part.next_offset} of ${part.total_chars} chars; read on: ${page.next_uri}]`;
  }
  return { uri, mimeType, text, _meta: { "web-data/page": page } };
}

const TEXTUAL = /^(text\/|application\/(json|jsonl|x-ndjson|xml))/;

/**
 * Reads what `uri` names through `client` (scoped to the caller by the server). Rejects with the
 * client's `ApiError` when upstream has no such thing.
 */
export async function readResource(
  uri: string,
  ref: ResourceRef,
  client: WebDataClient,
  opts: CallOptions,
): Promise<ResourceContent> {
  if (ref.kind === "page") {
    const result = await client.getTaskResults(ref.taskId, opts);
    const data = result.data ?? {};
    const html = data.markdown === undefined && data.html !== undefined;
    return pagedText(uri, ref, data.markdown ?? data.html ?? "", html ? "text/html" : "text/markdown");
  }
  if (ref.kind === "media") {
    const result = await client.getTaskResults(ref.taskId, opts);
    const url = (result.data as { download_url?: unknown } | undefined)?.download_url;
    if (typeof url !== "string") return pagedText(uri, ref, "", "text/plain");
    return fileContent(uri, ref, url, await client.download(url, MAX_BLOB_BYTES, opts));
  }
  const link = await client.artifactDownloadUrl(ref.runId, ref.artifactId, opts);
  const file = await client.download(link.url, MAX_TEXT_FILE_BYTES, opts);
  return pagedText(uri, ref, file.bytes.toString("utf8"), "application/jsonl");
}

function fileContent(
  uri: string,
  ref: ResourceRef,
  url: string,
  file: { contentType: string; bytes: Buffer; truncated: boolean },
): ResourceContent {
  const mimeType = file.contentType.split(";")[0]?.trim() || "application/octet-stream";
  if (TEXTUAL.test(mimeType)) return pagedText(uri, ref, file.bytes.toString("utf8"), mimeType);
  if (file.truncated) {
    const text = `The file (${mimeType}) is over ${MAX_BLOB_BYTES} bytes, too large to read here; download it from ${url}`;
    return { uri, mimeType: "text/plain", text };
  }
  return { uri, mimeType, blob: file.bytes.toString("base64") };
}
