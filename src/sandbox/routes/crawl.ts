/** POST /v1/crawl, GET /v1/crawl/{id} and POST /v1/map/async. */
import { Hono } from "hono";
import { CrawlRequestSchema, MapRequestSchema } from "../../api/schemas.js";
import type { SandboxState } from "../context.js";
import { type CrawlStore, discoverLinks } from "../crawl.js";
import { FAULT_HEADER } from "../faults.js";
import { notFound, parseBody, type SandboxEnv } from "../http.js";

const DEFAULT_MAP_LIMIT = 100;

export function crawlRoutes(state: SandboxState, crawls: CrawlStore) {
  const r = new Hono<SandboxEnv>();

  r.post("/v1/crawl", async (c) => {
    const body = await parseBody(c, CrawlRequestSchema);
    if (!body.ok) return body.response;
    const fail = state.faults.take(
      ["crawl_fail"],
      `${c.req.method} ${c.req.path}`,
      c.req.header(FAULT_HEADER),
    );
    const { url, limit, callback, ...filters } = body.data;
    const id = crawls.start(url, limit, callback, fail !== undefined, filters);
    return c.json({ crawl_id: id });
  });

  r.get("/v1/crawl/:id", (c) => {
    const status = crawls.status(c.req.param("id"));
    return status ? c.json(status) : notFound(c, "Crawl");
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

  return r;
}
