/**
 * Crawls: breadth-first over links of the start URL's site (same origin; under /site for the demo
 * site), one page per `crawlPageMs`. Each visited page becomes a finished task whose results hold
 * its Markdown. Crawl callback payloads (our shape, the spec shows none):
 *   {event: "started"|"page"|"completed"|"failed", crawl_id, metadata, crawl: {status, completed, total},
 *    page?: {url, task_id, status_code}, error?}
 */
import { randomUUID } from "node:crypto";
import { LRUCache } from "lru-cache";
import type { SandboxState } from "./context.js";
import { pageData } from "./formats.js";
import { fetchTarget, type SiteLocation, sitePath } from "./site/fetch.js";
import type { LargePages } from "./site/large.js";

export interface CrawlCallback {
  url: string;
  headers?: Record<string, string>;
  metadata?: Record<string, unknown>;
  events?: string[];
}

/** The §8 crawl filters the sandbox honours (the rest are accepted and echoed). */
export interface CrawlFilters {
  include_paths?: string[];
  exclude_paths?: string[];
  max_discovery_depth?: number;
  allow_subdomains?: boolean;
  [option: string]: unknown;
}

interface Crawl {
  id: string;
  startUrl: string;
  limit: number;
  status: "running" | "succeeded" | "failed" | "canceled";
  createdAt: string;
  filters: CrawlFilters;
  /** Link depth of each queued or seen URL (the start URL is 0). */
  depth: Map<string, number>;
  queue: string[];
  seen: Set<string>;
  tasks: { id: string; url: string; state: string }[];
  error?: string;
  failAfterFirstPage: boolean;
  callback?: CrawlCallback;
}

const MAX_CRAWLS = 1_000;

/** Whether `link` belongs to the same site as `start` (same origin; inside /site for the demo site). */
export function sameSite(start: string, link: string, where: SiteLocation): boolean {
  const a = new URL(start);
  const b = new URL(link);
  if (a.origin !== b.origin) return false;
  return sitePath(a, where) === undefined || sitePath(b, where) !== undefined;
}

/** Normalises a URL for de-duplication: no fragment. */
const normal = (url: string) => url.replace(/#.*$/, "");

export class CrawlStore {
  /** Oldest dropped first past MAX_CRAWLS (read with `peek`, so reads do not reorder). */
  private readonly crawls = new LRUCache<string, Crawl>({ max: MAX_CRAWLS });

  constructor(private readonly state: SandboxState) {}

  start(
    url: string,
    limit: number,
    callback: CrawlCallback | undefined,
    fail: boolean,
    filters: CrawlFilters = {},
  ): string {
    const crawl: Crawl = {
      id: randomUUID(),
      startUrl: url,
      limit,
      status: "running",
      createdAt: new Date().toISOString(),
      filters,
      depth: new Map([[normal(url), 0]]),
      queue: [normal(url)],
      seen: new Set([normal(url)]),
      tasks: [],
      failAfterFirstPage: fail,
      callback,
    };
    this.crawls.set(crawl.id, crawl);
    this.emit(crawl, "started", {});
    this.state.timers.after(this.state.config.crawlPageMs, () => this.step(crawl));
    return crawl.id;
  }

  status(id: string) {
    const crawl = this.crawls.peek(id);
    if (!crawl) return undefined;
    return {
      crawl: {
        id: crawl.id,
        url: crawl.startUrl,
        status: crawl.status,
        completed: crawl.tasks.length,
        total: this.total(crawl),
        tasks: crawl.tasks,
        ...(crawl.error ? { error: crawl.error } : {}),
      },
    };
  }

  /**
   * The generation-2 crawl record (flat, §8 of web-data-api-v2.md): `queued` until the first
   * page, tasks as `{task_id, status: pending|completed|failed}`.
   */
  record(id: string) {
    const crawl = this.crawls.peek(id);
    if (!crawl) return undefined;
    return {
      crawl_id: crawl.id,
      account_name: "sandbox",
      url: crawl.startUrl,
      status: crawl.status === "running" && crawl.tasks.length === 0 ? "queued" : crawl.status,
      crawl_options: {
        allow_external_links: false,
        allow_subdomains: false,
        crawl_entire_domain: false,
        ignore_query_parameters: false,
        max_discovery_depth: 5,
        sitemap: "include",
        limit: crawl.limit,
        ...crawl.filters,
      },
      created_at: crawl.createdAt,
      updated_at: crawl.createdAt,
      completed_at: null,
      total: this.total(crawl),
      completed: crawl.tasks.length,
      failed: 0,
      pending: Math.max(0, this.total(crawl) - crawl.tasks.length),
      tasks: crawl.tasks.map((t) => ({
        task_id: t.id,
        url: t.url,
        status: t.state === "success" ? "completed" : t.state,
      })),
      ...(crawl.error ? { error: crawl.error } : {}),
    };
  }

  /** Newest first, optionally of one status; `cursor` is the index to go on from. */
  list(status: string, cursor: string | undefined, limit: number) {
    const all = [...this.crawls.values()].filter((c) => status === "all" || c.status === status);
    const from = cursor ? Number.parseInt(cursor, 10) || 0 : 0;
    const data = all.slice(from, from + limit).map((c) => ({
      crawl_id: c.id,
      account_name: "sandbox",
      url: c.startUrl,
      status: c.status,
      created_at: c.createdAt,
      updated_at: c.createdAt,
      crawl_options: { limit: c.limit, ...c.filters },
      completed: c.tasks.length,
      total: this.total(c),
    }));
    const more = from + limit < all.length;
    return {
      data,
      pagination: { has_next: more, next_cursor: more ? String(from + limit) : null, total: all.length },
    };
  }

  /** Ends a running crawl (`canceled`); false when there is no such crawl. A finished one stays as it ended. */
  cancel(id: string): { status: string } | undefined {
    const crawl = this.crawls.peek(id);
    if (!crawl) return undefined;
    if (crawl.status === "running") {
      crawl.status = "canceled";
      crawl.queue = [];
    }
    return { status: crawl.status };
  }

  /** Whether a discovered link passes the crawl's filters. */
  private admits(crawl: Crawl, link: string, depth: number): boolean {
    const f = crawl.filters;
    if (f.max_discovery_depth !== undefined && depth > f.max_discovery_depth) return false;
    const path = new URL(link).pathname;
    const test = (patterns: string[]) =>
      patterns.some((p) => {
        try {
          return new RegExp(p).test(path);
        } catch {
          return false;
        }
      });
    if (f.include_paths?.length && !test(f.include_paths)) return false;
    return !(f.exclude_paths?.length && test(f.exclude_paths));
  }

  private total(crawl: Crawl): number {
    if (crawl.status !== "running") return crawl.tasks.length;
    return Math.min(crawl.limit, crawl.tasks.length + crawl.queue.length);
  }

  private step(crawl: Crawl): void {
    if (crawl.status !== "running") return;
    const url = crawl.queue.shift();
    if (url === undefined) {
      this.finish(crawl, "succeeded");
      return;
    }
    const where = this.state.location;
    const page = fetchTarget(url, where, this.state.largePages);
    if (!page.ok) {
      crawl.error = page.error;
      this.finish(crawl, "failed");
      return;
    }
    const task = this.state.tasks.create({
      apiType: "crawl",
      input: { url, crawl_id: crawl.id },
      url,
      delayMs: 0,
      statusCode: page.status,
      driver: "vx6",
      data: () => {
        const again = fetchTarget(url, where, this.state.largePages);
        return again.ok ? pageData(again, ["markdown"]) : {};
      },
    });
    crawl.tasks.push({ id: task.id, url, state: "success" });
    const depth = (crawl.depth.get(url) ?? 0) + 1;
    for (const link of page.links.map(normal)) {
      if (!crawl.seen.has(link) && sameSite(crawl.startUrl, link, where)) {
        crawl.seen.add(link);
        if (!this.admits(crawl, link, depth)) continue;
        crawl.depth.set(link, depth);
        crawl.queue.push(link);
      }
    }
    this.emit(crawl, "page", { page: { url, task_id: task.id, status_code: page.status } });
    if (crawl.failAfterFirstPage) {
      crawl.error = "Crawl failed: the target site stopped responding";
      this.finish(crawl, "failed");
    } else if (crawl.tasks.length >= crawl.limit || crawl.queue.length === 0) {
      this.finish(crawl, "succeeded");
    } else {
      this.state.timers.after(this.state.config.crawlPageMs, () => this.step(crawl));
    }
  }

  private finish(crawl: Crawl, status: "succeeded" | "failed"): void {
    crawl.status = status;
    crawl.queue = [];
    this.emit(
      crawl,
      status === "succeeded" ? "completed" : "failed",
      crawl.error ? { error: crawl.error } : {},
    );
  }

  private emit(crawl: Crawl, event: string, extra: Record<string, unknown>): void {
    const cb = crawl.callback;
    if (!cb || (cb.events && !cb.events.includes(event))) return;
    const body = {
      event,
      crawl_id: crawl.id,
      metadata: cb.metadata ?? {},
      crawl: { status: crawl.status, completed: crawl.tasks.length, total: this.total(crawl) },
      ...extra,
    };
    this.state.callbacks.send(cb.url, body, cb.headers);
  }
}

/** Site URLs found breadth-first from `url`, up to `limit` (the map endpoint's `data.links`). */
export function discoverLinks(url: string, limit: number, where: SiteLocation, built: LargePages): string[] {
  const found = [normal(url)];
  const seen = new Set(found);
  for (let i = 0; i < found.length && found.length < limit; i++) {
    const page = fetchTarget(found[i], where, built);
    if (!page.ok) break;
    for (const link of page.links.map(normal)) {
      if (found.length >= limit) break;
      if (!seen.has(link) && sameSite(url, link, where)) {
        seen.add(link);
        found.push(link);
      }
    }
  }
  return found;
}
