/**
 * SERP answers drawn from the demo site: pages ranked by how well they match the query, then the
 * rest of the site in a fixed order per query, so `num_results` is honoured up to the site's size.
 */
import { randomUUID } from "node:crypto";
import type { z } from "zod";
import type { SerpRequestSchema } from "../api/schemas.js";
import { toMarkdown } from "./formats.js";
import { hash32 } from "./hash.js";
import { SITE_PAGES, type SitePage } from "./site/pages.js";

type SerpRequest = z.output<typeof SerpRequestSchema>;

const DEFAULT_RESULTS = 10;

const tokens = (text: string) => text.toLowerCase().match(/[a-z0-9]{2,}/g) ?? [];
const plain = (html: string) => html.replace(/<[^>]+>/g, " ");

function score(page: SitePage, words: string[]): number {
  const title = tokens(page.title);
  const description = tokens(page.description);
  const body = tokens(plain(page.body));
  return words.reduce(
    (sum, w) => sum + 3 * count(title, w) + 2 * count(description, w) + Math.min(3, count(body, w)),
    0,
  );
}

const count = (list: string[], word: string) => list.filter((t) => t === word || t.startsWith(word)).length;

export function rankedPages(query: string): SitePage[] {
  const words = tokens(query);
  return SITE_PAGES.map((page) => ({ page, score: score(page, words), tie: hash32(`${query}|${page.path}`) }))
    .sort((a, b) => b.score - a.score || a.tie - b.tie)
    .map((x) => x.page);
}

function snippet(page: SitePage): string {
  const text = plain(page.body).replace(/\s+/g, " ").trim();
  return `${page.description} ${text}`.slice(0, 160);
}

function resultsHtml(query: string, organic: { title: string; url: string; snippet: string }[]): string {
  const items = organic.map(
    (o) => `<div class="result"><h3><a href="${o.url}">${o.title}</a></h3><p>${o.snippet}</p></div>`,
  );
  return `<!doctype html>\n<html><head><title>${query} - Search</title></head><body>\n${items.join("\n")}\n</body></html>\n`;
}

export function serpResponse(req: SerpRequest, siteUrl: string) {
  const started = Date.now();
  const query = req.query ?? "";
  const page = req.page ?? 1;
  const size = req.num_results ?? DEFAULT_RESULTS;
  const ranked = rankedPages(query);
  const start = (page - 1) * size;
  const organic = ranked.slice(start, start + size).map((p, i) => {
    const url = `${siteUrl}${p.path === "/" ? "/" : p.path}`;
    return {
      position: start + i + 1,
      title: p.title,
      url,
      snippet: snippet(p),
      displayed_url: url.replace(/^https?:\/\//, ""),
    };
  });
  const host = `www.${req.search_engine.split("_")[0]}.${req.domain}`;
  const url = `https://${host}/search?q=${encodeURIComponent(query)}${page > 1 ? `&page=${page}` : ""}`;
  const words = tokens(query).slice(0, 3).join(" ") || "outdoor gear";
  const data: Record<string, unknown> = {};
  if (req.parse) {
    const related = [`${words} reviews`, `best ${words}`, `${words} price`, `${words} near me`];
    data.parsing = {
      status: "success",
      entities: { organic, related_searches: related.map((q) => ({ query: q })) },
    };
  } else {
    data.html = resultsHtml(query, organic);
    data.markdown = toMarkdown(data.html as string);
  }
  return {
    task_id: randomUUID(),
    url,
    status: "success",
    data,
    metadata: {
      driver: req.render ? "vx8" : "vx6",
      query_time: new Date(started).toISOString(),
      query_duration: Date.now() - started,
      response_parameters: { search_engine: req.search_engine, query, page, num_results: size },
      ...(req.country ? { localization_id: req.country.toLowerCase() } : {}),
    },
    ...(start + size < ranked.length ? { pagination: { next_page_params: { page: page + 1 } } } : {}),
    status_code: 200,
  };
}
