/**
 * Generation 2 of the API beside generation 1, as the service serves both (web-data-api-v2.md).
 * The generation-2 counterparts of generation-1 routes share their handlers (the route files
 * register both paths); this layer gives their answers the generation-2 shapes on the way out
 * (§3–§11 of the reference): async submissions `{status: "success", task: <record>}`, task
 * records with `queued`/`in_progress`, cursor lists `{data, pagination}`, batch detail and
 * progress with `id` and `status: "success"` and no `total`. Generation-2 shapes do not depend on
 * the dialect, which is a generation-1 matter.
 *
 * `generation2: false` (sandbox option) makes every route of `GENERATION2_ONLY` answer 404, as a
 * service with generation 1 only would; the `/v2` routes the generation-1 spec itself lists
 * (SERP, template run/batch/versions, jobs) stay.
 */
import type { MiddlewareHandler } from "hono";
import type { SandboxState } from "./context.js";
import { liveTask, taskPage } from "./dialect.js";
import { errorResponse, type SandboxEnv } from "./http.js";

type Obj = Record<string, any>;
type Rewrite = (body: any, path: string) => unknown;

/** Routes that exist in generation 2 only (method, path). */
export const GENERATION2_ONLY: [string, RegExp][] = [
  ["POST", /^\/v2\/extract(\/async|\/batch)?$/],
  ["*", /^\/v2\/(tasks|batches|crawl)(\/.*)?$/],
  ["POST", /^\/v2\/map$/],
  ["GET", /^\/v2\/domain-knowledge\/driver$/],
  ["GET", /^\/v2\/extract\/templates$/],
  ["POST", /^\/v2\/extract\/templates\/async$/],
  ["GET", /^\/v2\/extract\/templates\/(?!generations$)[^/]+$/],
  ["*", /^\/v2\/extract\/templates\/generations(\/[^/]+)?$/],
  ["PATCH", /^\/v2\/extract\/templates\/[^/]+$/],
  ["DELETE", /^\/v2\/extract\/templates\/[^/]+$/],
  ["POST", /^\/v2\/search$/],
  ["POST", /^\/v2\/(fast-serp|serp\/batch|serp\/async)$/],
  ["*", /^\/v2\/agents(\/.*)?$/],
  ["*", /^\/v2\/media(\/async)?$/],
  // jobs: all but the two routes the generation-1 spec lists under /v2 (a job's runs, a download URL)
  ["*", /^\/v2\/jobs(\/job_[^/]+)?$/],
  ["POST", /^\/v2\/jobs\/[^/]+\/runs$/],
  ["*", /^\/v2\/jobs\/runs\/[^/]+(\/cancel|\/artifacts(\/[^/]+(\/preview)?)?)?$/],
];

const isObj = (v: unknown): v is Obj => typeof v === "object" && v !== null && !Array.isArray(v);

export function generation2Shapes(state: SandboxState) {
  const record = (id: unknown) => {
    const task = typeof id === "string" ? state.tasks.get(id) : undefined;
    return task ? liveTask(state.tasks.record(task)) : null;
  };
  const submitted: Rewrite = (b) =>
    isObj(b) && typeof b.task_id === "string" ? { status: "success", task: record(b.task_id) } : b;
  const batchCreated: Rewrite = (b) =>
    isObj(b) ? { ...b, tasks: (b.tasks ?? []).map((t: Obj) => record(t?.id) ?? t) } : b;
  const progress = (b: Obj, id: string) => ({
    id,
    status: "success",
    completed: b.completed,
    completed_count: b.completed_count,
    progress: b.progress,
    completed_at: b.completed ? new Date().toISOString() : null,
  });
  const lastSegment = (path: string, from = 1) => path.split("/").at(-from) ?? "";

  const routes: [string, RegExp, Rewrite][] = [
    ["POST", /^\/v2\/(extract|extract\/templates|serp)\/async$/, submitted],
    ["POST", /^\/v2\/(extract|serp)\/batch$/, batchCreated],
    ["GET", /^\/v2\/tasks\/[^/]+$/, (b) => (isObj(b) ? { task: record(b.task?.id) ?? b.task } : b)],
    [
      "GET",
      /^\/v2\/tasks\/[^/]+\/results$/,
      (b) => (isObj(b) ? { ...b, task: record(b.task_id) ?? b.task } : b),
    ],
    ["GET", /^\/v2\/tasks$/, (b) => (isObj(b) ? taskPage(b) : b)],
    [
      "GET",
      /^\/v2\/batches$/,
      (b) =>
        isObj(b)
          ? {
              data: (b.batches ?? []).map((s: Obj) => ({
                id: s.batch_id,
                account_name: "sandbox",
                completed: s.completed,
                created_at: s.created_at,
                tasks: (state.batches.get(s.batch_id)?.taskIds ?? []).slice(),
              })),
              pagination: { has_next: false, next_cursor: null, total: (b.batches ?? []).length },
            }
          : b,
    ],
    [
      "GET",
      /^\/v2\/batches\/[^/]+\/progress$/,
      (b, path) => (isObj(b) ? progress(b, lastSegment(path, 2)) : b),
    ],
    [
      "GET",
      /^\/v2\/batches\/[^/]+$/,
      (b, path) =>
        isObj(b)
          ? {
              ...progress(b, lastSegment(path)),
              progress: b.batch_size > 0 ? b.completed_count / b.batch_size : 1,
              created_at: b.created_at,
              tasks: (b.tasks ?? []).map((t: Obj) => record(t?.id)),
            }
          : b,
    ],
  ];

  const off = (method: string, path: string) =>
    state.config.generation2 === false &&
    GENERATION2_ONLY.some(([m, re]) => (m === "*" || m === method) && re.test(path));

  const middleware: MiddlewareHandler<SandboxEnv> = async (c, next) => {
    if (off(c.req.method, c.req.path))
      return errorResponse(c, 404, `No route for ${c.req.method} ${c.req.path}`);
    await next();
    if (c.get("connectionReset") || c.res.status < 200 || c.res.status >= 300) return;
    const route = routes.find(([m, re]) => m === c.req.method && re.test(c.req.path));
    if (!route || !(c.res.headers.get("content-type") ?? "").includes("application/json")) return;
    let body: unknown;
    try {
      body = await c.res.clone().json();
    } catch {
      return; // a malformed-body fault stays malformed
    }
    const out = route[2](body, c.req.path);
    if (out === body) return;
    const { status } = c.res;
    const headers = new Headers(c.res.headers);
    headers.delete("content-length");
    c.res = undefined as unknown as Response;
    c.res = new Response(JSON.stringify(out), { status, headers });
  };
  return middleware;
}
