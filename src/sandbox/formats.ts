/** Builds a task result's `data` from a fetched page and the requested formats. */

import { createHash } from "node:crypto";
import { LRUCache } from "lru-cache";
import { NodeHtmlMarkdown } from "node-html-markdown";
import { screenshotPng } from "./screenshot.js";
import type { FetchOutcome } from "./site/fetch.js";

export type Format = "html" | "markdown" | "headers" | "links" | "screenshot";

const converter = new NodeHtmlMarkdown({ keepDataImages: false });

/** Only the top of a page shows in a screenshot. */
const SCREENSHOT_HTML_LIMIT = 100_000;

/** Text lines of the page body, cheaply (for the screenshot's text bars). */
function visibleText(html: string): string {
  const body = html.replace(/^[\s\S]*?<body[^>]*>/i, "");
  return body.replace(/<(p|h\d|li|div|tr|br)[^>]*>/gi, "\n").replace(/<[^>]+>/g, "");
}

export function toMarkdown(html: string): string {
  return converter.translate(html).replace(/^\s+/, "");
}

/**
 * A page's Markdown is converted once per HTML (results are re-read often, and many URLs give the
 * same page: a demo-site path under any query string, e.g. a batch's 1,000 `/blog?item=N`). Keyed
 * by the HTML's digest, so the memo is pure whatever the URL and holds no HTML.
 */
const MARKDOWN_CACHE_SIZE = 2_000;
const markdownCache = new LRUCache<string, string>({ max: MARKDOWN_CACHE_SIZE });
const CACHEABLE_HTML = 512 * 1024;

function markdownOf(page: Extract<FetchOutcome, { ok: true }>): string {
  if (page.html.length > CACHEABLE_HTML) return toMarkdown(page.html);
  const key = createHash("sha256").update(page.html).digest("base64");
  const cached = markdownCache.get(key);
  if (cached !== undefined) return cached;
  const markdown = toMarkdown(page.html);
  markdownCache.set(key, markdown);
  return markdown;
}

export function pageHeaders(page: Extract<FetchOutcome, { ok: true }>): Record<string, string> {
  return {
    "content-type": "text/html; charset=utf-8",
    "content-length": String(Buffer.byteLength(page.html)),
    server: page.onSite ? "acme-demo-site" : "sandbox-synthetic",
    "cache-control": "max-age=300",
  };
}

/** The `data` object for these formats; the default (no formats) is markdown only. */
export function pageData(page: Extract<FetchOutcome, { ok: true }>, formats: readonly string[] | undefined) {
  const wanted = new Set(formats && formats.length > 0 ? formats : ["markdown"]);
  const data: Record<string, unknown> = {};
  if (wanted.has("html")) data.html = page.html;
  if (wanted.has("markdown")) data.markdown = page.markdown ?? markdownOf(page);
  if (wanted.has("headers")) data.headers = pageHeaders(page);
  if (wanted.has("links")) data.links = page.links;
  if (wanted.has("screenshot")) {
    const text = visibleText(page.html.slice(0, SCREENSHOT_HTML_LIMIT));
    data.screenshots = [{ format: "png", data: screenshotPng(page.title, text).toString("base64") }];
  }
  return data;
}
