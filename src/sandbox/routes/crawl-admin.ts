/** Crawl listing and termination (§8), both generations: GET /v{1,2}/crawl and DELETE /v{1,2}/crawl/{id}. */
import { Hono } from "hono";
import { CrawlListQuerySchema } from "../../api/schemas-v2.js";
import type { CrawlStore } from "../crawl.js";
import { notFound, parseQuery, type SandboxEnv } from "../http.js";

/** A crawl id every sandbox answers a DELETE for, as a finished crawl (the `cancel` tool's example). */
export const DEMO_CRAWL_ID = "00000000-0000-4000-a000-00000000c0de";

export function crawlAdminRoutes(crawls: CrawlStore) {
  const r = new Hono<SandboxEnv>();
  for (const base of ["/v2/crawl", "/v1/crawl"]) {
    r.get(base, (c) => {
      const query = parseQuery(c, CrawlListQuerySchema);
      if (!query.ok) return query.response;
      const { status, cursor, limit } = query.data;
      return c.json(crawls.list(status, cursor, limit));
    });
    r.delete(`${base}/:id`, (c) => {
      if (c.req.param("id") === DEMO_CRAWL_ID) return c.json({ status: "succeeded" });
      const ended = crawls.cancel(c.req.param("id"));
      return ended ? c.json(ended) : notFound(c, "Crawl");
    });
  }
  return r;
}
