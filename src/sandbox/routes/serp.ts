/**
 * POST /v2/serp (listed by the generation-1 spec too); fast SERP (POST /v2/fast-serp, the same
 * answer at once) and SERP batches (POST /v2/serp/batch: a task per query), each also under /v1
 * as the 0.20.0 SDK had them (web-data-api-v2.md §5, §18); the /v2 forms of those two are
 * generation 2 only. Async SERP (POST /v2/serp/async, also /v1: a task whose result is the
 * answer, its callback sent when it ends). Async search: POST /v1/search/async.
 */
import { SerpAsyncRequestSchema, SerpBatchRequestSchema, SerpRequestSchema } from "../../api/schemas.js";
import { type SandboxState, TASK_ERROR } from "../context.js";
import * as live from "../dialect.js";
import { staggeredDelay } from "../extract.js";
import { FAULT_HEADER } from "../faults.js";
import * as v2 from "../generation2.js";
import { type Ctx, parseBody, validationResponse } from "../http.js";
import type { Route } from "../routing.js";
import { serpResponse } from "../serp.js";
import type { ApiType } from "../tasks.js";
import { stripUndefined } from "./extract.js";

type SerpRequest = ReturnType<typeof SerpRequestSchema.parse>;

/** A task whose result is the SERP answer to `request`. */
function serpTask(
  state: SandboxState,
  c: Ctx,
  apiType: ApiType,
  request: SerpRequest,
  delayMs: number,
  batchId?: string,
  callbackUrl?: string,
) {
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
}

const serp: Route["handle"] = async (c, { state }) => {
  const body = await parseBody(c, SerpRequestSchema);
  if (!body.ok) return body.response;
  return serpResponse(body.data, state.location.siteUrl);
};

export const SERP_ROUTES: Route[] = [
  { method: "POST", 2: { path: "/v2/serp", specV2: true, live: live.serp }, handle: serp },
  { method: "POST", 1: { path: "/v1/fast-serp" }, 2: { path: "/v2/fast-serp" }, handle: serp },
  {
    method: "POST",
    1: { path: "/v1/serp/batch" },
    2: { path: "/v2/serp/batch", reply: v2.batchCreated },
    handle: async (c, { state }) => {
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
        serpTask(
          state,
          c,
          "serp",
          q.data as SerpRequest,
          staggeredDelay(latency, i, requests.length),
          batchId,
        ),
      );
      return state.batches.submit(batchId, "serp", tasks);
    },
  },
  {
    // Async SERP (§5): the SERP answer becomes the result of a task, its callback sent when it ends.
    method: "POST",
    1: { path: "/v1/serp/async" },
    2: { path: "/v2/serp/async", reply: v2.submitted },
    handle: async (c, { state }) => {
      const body = await parseBody(c, SerpAsyncRequestSchema);
      if (!body.ok) return body.response;
      const { callback_url, ...request } = body.data;
      const task = serpTask(state, c, "serp", request, state.config.taskLatencyMs, undefined, callback_url);
      return { task_id: task.id };
    },
  },
  {
    // Async search: the SERP answer becomes the result of a task (request shape: the SERP request).
    method: "POST",
    1: { path: "/v1/search/async", live: live.taskSubmission },
    handle: async (c, { state }) => {
      const body = await parseBody(c, SerpRequestSchema);
      if (!body.ok) return body.response;
      const task = serpTask(state, c, "search", body.data, state.config.taskLatencyMs);
      return { task_id: task.id };
    },
  },
];
