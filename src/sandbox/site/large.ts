/** The generated N-megabyte page at /site/large?mb=N, for big-result tests. */
import { LRUCache } from "lru-cache";

export const MAX_LARGE_MB = 50;
const CHUNK = 64 * 1024;

export function largeMegabytes(raw: string | undefined | null): number {
  const mb = Number(raw ?? 1);
  if (!Number.isFinite(mb) || mb <= 0) return 1;
  return Math.min(mb, MAX_LARGE_MB);
}

const head = (mb: number) =>
  `<!doctype html>\n<html lang="en"><head><meta charset="utf-8"><title>Large page (${mb} MB)</title></head>\n<body><main><h1>Large page (${mb} MB)</h1>\n`;
const tail = "</main></body></html>\n";

function paragraph(n: number): string {
  return `<p>Paragraph ${n}: the quick brown fox jumps over the lazy dog while the trail winds up to the ridge.</p>\n`;
}

/** The page as chunks of about 64 KiB, so it can be streamed without building it whole. */
export function* largePageChunks(mb: number): Generator<string> {
  const target = Math.round(mb * 1024 * 1024);
  let size = 0;
  let n = 1;
  let chunk = head(mb);
  while (size + chunk.length < target - tail.length) {
    if (chunk.length >= CHUNK) {
      size += chunk.length;
      yield chunk;
      chunk = "";
    }
    chunk += paragraph(n++);
  }
  yield chunk + tail;
}

export function largePageHtml(mb: number): string {
  return [...largePageChunks(mb)].join("");
}

/**
 * The Markdown of the same page, built directly: converting megabytes of HTML with the
 * HTML-to-Markdown library would block the event loop for minutes.
 */
export function largePageMarkdown(html: string, mb: number): string {
  const paragraphs = html.match(/<p>[^<]*<\/p>/g) ?? [];
  return `# Large page (${mb} MB)\n\n${paragraphs.map((p) => p.slice(3, -4)).join("\n\n")}\n`;
}

/** How many built large pages a sandbox keeps (a 20 MB page is 40 MB with its Markdown). */
const LARGE_PAGES_KEPT = 2;

/**
 * One sandbox's built large pages, the most recently read few: building a 20 MB page and its
 * Markdown takes ~0.4 s of CPU, and a task's result (built on each read) is read more than once.
 */
export class LargePages {
  readonly #pages = new LRUCache<number, { html: string; markdown: string }>({ max: LARGE_PAGES_KEPT });

  /** The page of `mb` megabytes and its Markdown, built on first use. */
  page(mb: number): { html: string; markdown: string } {
    let page = this.#pages.get(mb);
    if (!page) {
      const html = largePageHtml(mb);
      page = { html, markdown: largePageMarkdown(html, mb) };
      this.#pages.set(mb, page);
    }
    return page;
  }
}
