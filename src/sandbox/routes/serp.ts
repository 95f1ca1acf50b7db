/** POST /v2/serp. */
import { Hono } from "hono";
import { SerpRequestSchema } from "../../api/schemas.js";
import { type SandboxState, TASK_ERROR } from "../context.js";
import { FAULT_HEADER } from "../faults.js";
import { parseBody, type SandboxEnv } from "../http.js";
import { serpResponse } from "../serp.js";

export function serpRoutes(state: SandboxState) {
  const r = new Hono<SandboxEnv>();
  r.post("/v2/serp", async (c) => {
    const body = await parseBody(c, SerpRequestSchema);
    if (!body.ok) return body.response;
    return c.json(serpResponse(body.data, state.location.siteUrl));
  });

  // Async search: the SERP answer becomes the result of a task (request shape: the SERP request).
  r.post("/v1/search/async", async (c) => {
    const body = await parseBody(c, SerpRequestSchema);
    if (!body.ok) return body.response;
    const answer = serpResponse(body.data, state.location.siteUrl);
    const task = state.tasks.create({
      apiType: "search",
      input: body.data,
      url: answer.url,
      delayMs: state.config.taskLatencyMs,
      failure: state.faults.take(["task_error"], `${c.req.method} ${c.req.path}`, c.req.header(FAULT_HEADER))
        ? TASK_ERROR
        : undefined,
      statusCode: 200,
      driver: answer.metadata.driver,
      data: () => answer.data,
    });
    return c.json({ task_id: task.id });
  });
  return r;
}
