/**
 * Crawl and map, both generations side by side. Generation 1: POST /v1/crawl → `{crawl_id}`,
 * GET /v1/crawl/{id} → `{crawl}`, POST /v1/map/async; in the live dialect also the SDK's sync
 * POST /v1/map (§18 of web-data-api-v2.md). Generation 2: POST /v2/crawl and GET /v2/crawl/{id} →
 * the flat crawl record, sync POST /v2/map. Listing and DELETE (§8): GET /v{1,2}/crawl and
 * DELETE /v{1,2}/crawl/{id}.
 */

import { CrawlRequestSchema, MapRequestSchema } from "../../api/schemas.js";
import { CrawlListQuerySchema } from "../../api/schemas-v2.js";
import { type CrawlStore, discoverLinks } from "../crawl.js";
import * as live from "../dialect.js";
import { FAULT_HEADER } from "../faults.js";
import { type Ctx, notFound, parseBody, parseQuery } from "../http.js";
import { type Route, route } from "../routing.js";

const DEFAULT_MAP_LIMIT = 100;

/** A crawl id every sandbox answers a DELETE for, as a finished crawl (the `cancel` tool's example). */
export const DEMO_CRAWL_ID = "00000000-0000-4000-a000-00000000c0de";

/** The sync map; its links are also kept as a finished task, so `GET .../tasks/{task_id}/results` reads them. */
const mapSync: Route["handle"] = async (c, { state }) => {
  const body = await parseBody(c, MapRequestSchema);
  if (!body.ok) return body.response;
  const { url, limit } = body.data;
  const failure = state.failureFor(url, `${c.req.method} ${c.req.path}`, c.req.header(FAULT_HEADER));
  const links = failure
    ? []
    : discoverLinks(url, limit ?? DEFAULT_MAP_LIMIT, state.location, state.largePages).map((link) => ({
        url: link,
        title: titleOf(link),
        description: null,
      }));
  const task = state.tasks.create({
    apiType: "map",
    input: body.data,
    url,
    delayMs: 0,
    failure,
    statusCode: 200,
    driver: "vx6",
    data: () => ({ links }),
  });
  if (failure) return { task_id: task.id, success: false, links, error: failure.error };
  return { task_id: task.id, success: true, links };
};

const crawlId = (c: Ctx) => c.req.param("id") ?? "";

export const CRAWL_ROUTES: Route[] = [
  {
    method: "POST",
    1: { path: "/v1/crawl", live: live.crawlStarted },
    2: { path: "/v2/crawl", reply: (b, { state }) => state.crawls.record(b.crawl_id) },
    handle: async (c, { state }) => {
      const body = await parseBody(c, CrawlRequestSchema);
      if (!body.ok) return body.response;
      const fail = state.faults.take(
        ["crawl_fail"],
        `${c.req.method} ${c.req.path}`,
        c.req.header(FAULT_HEADER),
      );
      const { url, limit, callback, ...filters } = body.data;
      return { crawl_id: state.crawls.start(url, limit, callback, fail !== undefined, filters) };
    },
  },
  route<{ read: (crawls: CrawlStore, id: string) => object | undefined }>({
    // Generation 1 answers `{crawl}`, generation 2 the flat crawl record.
    method: "GET",
    1: { path: "/v1/crawl/:id", live: live.crawlStatus, read: (crawls, id) => crawls.status(id) },
    2: { path: "/v2/crawl/:id", read: (crawls, id) => crawls.record(id) },
    handle: (c, { state, side }) => side.read(state.crawls, crawlId(c)) ?? notFound(c, "Crawl"),
  }),
  {
    method: "GET",
    1: { path: "/v1/crawl" },
    2: { path: "/v2/crawl" },
    handle: (c, { state }) => {
      const query = parseQuery(c, CrawlListQuerySchema);
      if (!query.ok) return query.response;
      const { status, cursor, limit } = query.data;
      return state.crawls.list(status, cursor, limit);
    },
  },
  {
    method: "DELETE",
    1: { path: "/v1/crawl/:id" },
    2: { path: "/v2/crawl/:id" },
    handle: (c, { state }) => {
      if (crawlId(c) === DEMO_CRAWL_ID) return { status: "succeeded" };
      return state.crawls.cancel(crawlId(c)) ?? notFound(c, "Crawl");
    },
  },
  {
    method: "POST",
    1: { path: "/v1/map/async", live: live.taskSubmission },
    handle: async (c, { state }) => {
      const body = await parseBody(c, MapRequestSchema);
      if (!body.ok) return body.response;
      const { url, limit, callback_url } = body.data;
      const where = state.location;
      const task = state.tasks.create({
        apiType: "map",
        input: body.data,
        url,
        delayMs: state.config.taskLatencyMs,
        failure: state.failureFor(url, `${c.req.method} ${c.req.path}`, c.req.header(FAULT_HEADER)),
        statusCode: 200,
        callbackUrl: callback_url,
        driver: "vx6",
        data: () => ({ links: discoverLinks(url, limit ?? DEFAULT_MAP_LIMIT, where, state.largePages) }),
      });
      return { task_id: task.id };
    },
  },
  { method: "POST", 1: { path: "/v1/map", dialect: "live" }, 2: { path: "/v2/map" }, handle: mapSync },
];

/** A readable title from a URL's last path segment (the sandbox does not fetch every page). */
function titleOf(url: string): string {
  const last = new URL(url).pathname.split("/").filter(Boolean).at(-1) ?? "home";
  return decodeURIComponent(last)
    .replace(/[-_]+/g, " ")
    .replace(/\.\w+$/, "");
}
