/** Builds a task result's `data` from a fetched page and the requested formats. */
import { NodeHtmlMarkdown } from "node-html-markdown";
import { screenshotPng } from "./screenshot.js";
import type { FetchOutcome } from "./site/fetch.js";

export type Format = "html" | "markdown" | "headers" | "links" | "screenshot";

const converter = new NodeHtmlMarkdown({ keepDataImages: false });

export function toMarkdown(html: string): string {
  return converter.translate(html);
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
  if (wanted.has("markdown")) data.markdown = toMarkdown(page.html);
  if (wanted.has("headers")) data.headers = pageHeaders(page);
  if (wanted.has("links")) data.links = page.links;
  if (wanted.has("screenshot")) {
    const text = toMarkdown(page.html.length > 200_000 ? page.html.slice(0, 200_000) : page.html);
    data.screenshots = [{ format: "png", data: screenshotPng(page.title, text).toString("base64") }];
  }
  return data;
}
