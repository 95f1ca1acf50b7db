/** POST /v1/extract (sync), /v1/extract/async and /v1/extract/batch, and the same under /v2, side by side. */
import { ExtractBatchRequestSchema, ExtractRequestSchema } from "../../api/schemas.js";
import * as live from "../dialect.js";
import { createExtractTask, type ExtractInput, staggeredDelay } from "../extract.js";
import { FAULT_HEADER } from "../faults.js";
import * as v2 from "../generation2.js";
import { type Ctx, parseBody } from "../http.js";
import type { Route } from "../routing.js";

export const submission = (c: Ctx) => ({
  target: `${c.req.method} ${c.req.path}`,
  faultHeader: c.req.header(FAULT_HEADER),
});

export const EXTRACT_ROUTES: Route[] = [
  {
    method: "POST",
    1: { path: "/v1/extract", live: live.taskResult },
    2: { path: "/v2/extract" },
    handle: async (c, { state }) => {
      const body = await parseBody(c, ExtractRequestSchema);
      if (!body.ok) return body.response;
      const task = createExtractTask(state, body.data, { ...submission(c), delayMs: 0 });
      return state.tasks.result(task);
    },
  },
  {
    method: "POST",
    1: { path: "/v1/extract/async", live: live.taskSubmission },
    2: { path: "/v2/extract/async", reply: v2.submitted },
    handle: async (c, { state }) => {
      const body = await parseBody(c, ExtractRequestSchema);
      if (!body.ok) return body.response;
      const task = createExtractTask(state, body.data, {
        ...submission(c),
        delayMs: state.config.taskLatencyMs,
      });
      return { task_id: task.id };
    },
  },
  {
    method: "POST",
    1: { path: "/v1/extract/batch", live: live.batchSubmission },
    2: { path: "/v2/extract/batch", reply: v2.batchCreated },
    handle: async (c, { state }) => {
      const body = await parseBody(c, ExtractBatchRequestSchema);
      if (!body.ok) return body.response;
      const { inputs, shared_inputs } = body.data;
      const batchId = state.batches.newId();
      const latency = state.config.taskLatencyMs;
      const tasks = inputs.map((item, i) => {
        const input: ExtractInput = { ...shared_inputs, ...stripUndefined(item), url: item.url };
        return createExtractTask(state, input, {
          ...submission(c),
          batchId,
          delayMs: staggeredDelay(latency, i, inputs.length),
        });
      });
      return state.batches.submit(batchId, "extract", tasks);
    },
  },
];

/** Items override shared values, but a member the item leaves out keeps the shared value. */
export function stripUndefined<T extends object>(o: T): Partial<T> {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as Partial<T>;
}
