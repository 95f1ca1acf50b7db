/** POST /v1/extract (sync), /v1/extract/async and /v1/extract/batch, and the same under /v2 (shapes: generation2.ts). */
import { Hono } from "hono";
import { ExtractBatchRequestSchema, ExtractRequestSchema } from "../../api/schemas.js";
import type { SandboxState } from "../context.js";
import { createExtractTask, type ExtractInput, staggeredDelay } from "../extract.js";
import { FAULT_HEADER } from "../faults.js";
import { type Ctx, parseBody, type SandboxEnv } from "../http.js";

const submission = (c: Ctx) => ({
  target: `${c.req.method} ${c.req.path}`,
  faultHeader: c.req.header(FAULT_HEADER),
});

export function extractRoutes(state: SandboxState) {
  const r = new Hono<SandboxEnv>();

  r.on("POST", ["/v1/extract", "/v2/extract"], async (c) => {
    const body = await parseBody(c, ExtractRequestSchema);
    if (!body.ok) return body.response;
    const task = createExtractTask(state, body.data, { ...submission(c), delayMs: 0 });
    return c.json(state.tasks.result(task));
  });

  r.on("POST", ["/v1/extract/async", "/v2/extract/async"], async (c) => {
    const body = await parseBody(c, ExtractRequestSchema);
    if (!body.ok) return body.response;
    const task = createExtractTask(state, body.data, {
      ...submission(c),
      delayMs: state.config.taskLatencyMs,
    });
    return c.json({ task_id: task.id });
  });

  r.on("POST", ["/v1/extract/batch", "/v2/extract/batch"], async (c) => {
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
    return c.json(state.batches.submit(batchId, "extract", tasks));
  });

  return r;
}

/** Items override shared values, but a member the item leaves out keeps the shared value. */
export function stripUndefined<T extends object>(o: T): Partial<T> {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as Partial<T>;
}
