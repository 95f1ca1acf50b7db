/**
 * Crawl and map. Generation 1: POST /v1/crawl → `{crawl_id}`, GET /v1/crawl/{id} → `{crawl}`,
 * POST /v1/map/async; in the live dialect also the SDK's sync POST /v1/map (§18 of
 * web-data-api-v2.md). Generation 2: POST /v2/crawl and GET /v2/crawl/{id} → the flat crawl
 * record, sync POST /v2/map. Listing and DELETE: crawl-admin.ts.
 */
import { Hono } from "hono";
import { CrawlRequestSchema, MapRequestSchema } from "../../api/schemas.js";
import type { SandboxState } from "../context.js";
import { type CrawlStore, discoverLinks } from "../crawl.js";
import { DIALECT_HEADER, dialectOf } from "../dialect.js";
import { FAULT_HEADER } from "../faults.js";
import { type Ctx, errorResponse, notFound, parseBody, type SandboxEnv } from "../http.js";

const DEFAULT_MAP_LIMIT = 100;

export function crawlRoutes(state: SandboxState, crawls: CrawlStore) {
  const r = new Hono<SandboxEnv>();
  const live = (c: Ctx) => dialectOf(c.req.header(DIALECT_HEADER), state.config.dialect) === "live";

  const start = async (c: Ctx) => {
    const body = await parseBody(c, CrawlRequestSchema);
    if (!body.ok) return { response: body.response };
    const fail = state.faults.take(
      ["crawl_fail"],
      `${c.req.method} ${c.req.path}`,
      c.req.header(FAULT_HEADER),
    );
    const { url, limit, callback, ...filters } = body.data;
    return { id: crawls.start(url, limit, callback, fail !== undefined, filters) };
  };
  r.post("/v1/crawl", async (c) => {
    const started = await start(c);
    return started.response ?? c.json({ crawl_id: started.id });
  });
  r.post("/v2/crawl", async (c) => {
    const started = await start(c);
    return started.response ?? c.json(crawls.record(started.id));
  });

  r.get("/v1/crawl/:id", (c) => {
    const status = crawls.status(c.req.param("id"));
    return status ? c.json(status) : notFound(c, "Crawl");
  });
  r.get("/v2/crawl/:id", (c) => {
    const record = crawls.record(c.req.param("id"));
    return record ? c.json(record) : notFound(c, "Crawl");
  });

  r.post("/v1/map/async", async (c) => {
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
      data: () => ({ links: discoverLinks(url, limit ?? DEFAULT_MAP_LIMIT, where) }),
    });
    return c.json({ task_id: task.id });
  });

  /** The sync map; its links are also kept as a finished task, so `GET .../tasks/{task_id}/results` reads them. */
  const mapSync = async (c: Ctx) => {
    const body = await parseBody(c, MapRequestSchema);
    if (!body.ok) return body.response;
    const { url, limit } = body.data;
    const failure = state.failureFor(url, `${c.req.method} ${c.req.path}`, c.req.header(FAULT_HEADER));
    const links = failure
      ? []
      : discoverLinks(url, limit ?? DEFAULT_MAP_LIMIT, state.location).map((link) => ({
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
    if (failure) return c.json({ task_id: task.id, success: false, links, error: failure.error });
    return c.json({ task_id: task.id, success: true, links });
  };
  r.post("/v2/map", mapSync);
  r.post("/v1/map", (c) =>
    live(c) ? mapSync(c) : errorResponse(c, 404, `No route for ${c.req.method} ${c.req.path}`),
  );

  return r;
}

/** A readable title from a URL's last path segment (the sandbox does not fetch every page). */
function titleOf(url: string): string {
  const last = new URL(url).pathname.split("/").filter(Boolean).at(-1) ?? "home";
  return decodeURIComponent(last)
    .replace(/[-_]+/g, " ")
    .replace(/\.\w+$/, "");
}
