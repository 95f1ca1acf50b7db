/**
 * POST /v2/serp; fast SERP (POST /v2/fast-serp, the same answer at once) and SERP batches
 * (POST /v2/serp/batch: a task per query), each also under /v1 as the 0.20.0 SDK had them
 * (web-data-api-v2.md §5, §18); async SERP (POST /v2/serp/async, also /v1: a task whose result is
 * the answer); the /v2 forms are generation 2 only (generation2.ts).
 */
import { Hono } from "hono";
import { SerpAsyncRequestSchema, SerpBatchRequestSchema, SerpRequestSchema } from "../../api/schemas.js";
import { type SandboxState, TASK_ERROR } from "../context.js";
import { staggeredDelay } from "../extract.js";
import { FAULT_HEADER } from "../faults.js";
import { type Ctx, parseBody, type SandboxEnv, validationResponse } from "../http.js";
import { serpResponse } from "../serp.js";
import type { ApiType } from "../tasks.js";
import { stripUndefined } from "./extract.js";

type SerpRequest = ReturnType<typeof SerpRequestSchema.parse>;

export function serpRoutes(state: SandboxState) {
  const r = new Hono<SandboxEnv>();
  r.on("POST", ["/v2/serp", "/v1/fast-serp", "/v2/fast-serp"], async (c) => {
    const body = await parseBody(c, SerpRequestSchema);
    if (!body.ok) return body.response;
    return c.json(serpResponse(body.data, state.location.siteUrl));
  });

  /** A task whose result is the SERP answer to `request`. */
  const serpTask = (
    c: Ctx,
    apiType: ApiType,
    request: SerpRequest,
    delayMs: number,
    batchId?: string,
    callbackUrl?: string,
  ) => {
    const answer = serpResponse(request, state.location.siteUrl);
    return state.tasks.create({
      apiType,
      input: request,
      url: answer.url,
      delayMs,
      ...(batchId ? { batchId } : {}),
      ...(callbackUrl ? { callbackUrl } : {}),
      failure: state.faults.take(["task_error"], `${c.req.method} ${c.req.path}`, c.req.header(FAULT_HEADER))
        ? TASK_ERROR
        : undefined,
      statusCode: 200,
      driver: answer.metadata.driver,
      data: () => answer.data,
    });
  };

  r.on("POST", ["/v1/serp/batch", "/v2/serp/batch"], async (c) => {
    const body = await parseBody(c, SerpBatchRequestSchema);
    if (!body.ok) return body.response;
    const { inputs, shared_inputs } = body.data;
    // Each item is the shared members overridden by its own, then checked as one SERP request.
    const requests = inputs.map((item) =>
      SerpRequestSchema.safeParse({ ...shared_inputs, ...stripUndefined(item) }),
    );
    const bad = requests.findIndex((q) => !q.success);
    if (bad >= 0) {
      return validationResponse(c, [
        {
          loc: ["body", "inputs", bad, "search_engine"],
          msg: "search_engine is required in the item or in shared_inputs",
          type: "missing",
        },
      ]);
    }
    const batchId = state.batches.newId();
    const latency = state.config.taskLatencyMs;
    const tasks = requests.map((q, i) =>
      serpTask(c, "serp", q.data as SerpRequest, staggeredDelay(latency, i, requests.length), batchId),
    );
    return c.json(state.batches.submit(batchId, "serp", tasks));
  });

  // Async SERP (§5): the SERP answer becomes the result of a task, its callback sent when it ends.
  r.on("POST", ["/v1/serp/async", "/v2/serp/async"], async (c) => {
    const body = await parseBody(c, SerpAsyncRequestSchema);
    if (!body.ok) return body.response;
    const { callback_url, ...request } = body.data;
    const task = serpTask(c, "serp", request, state.config.taskLatencyMs, undefined, callback_url);
    return c.json({ task_id: task.id });
  });

  // Async search: the SERP answer becomes the result of a task (request shape: the SERP request).
  r.post("/v1/search/async", async (c) => {
    const body = await parseBody(c, SerpRequestSchema);
    if (!body.ok) return body.response;
    const task = serpTask(c, "search", body.data, state.config.taskLatencyMs);
    return c.json({ task_id: task.id });
  });
  return r;
}
