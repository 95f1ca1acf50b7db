/**
 * Task status, results and listing, and the batch endpoints, both generations (their shapes side
 * by side: generation2.ts, the live dialect's in dialect.ts). Task status and results are also
 * served under {legacy_base_url}/api/v1/tasks/..., where task records' status_url and
 * download_url point.
 */
import { z } from "zod";
import type { SandboxState } from "../context.js";
import * as live from "../dialect.js";
import * as v2 from "../generation2.js";
import { type Ctx, errorResponse, notFound, parseQuery } from "../http.js";
import type { Route } from "../routing.js";

const TaskListQuery = z.object({
  cursor: z
    .string()
    .regex(/^[0-9a-z]{1,12}$/, "cursor must be a next_cursor value from a previous page")
    .optional(),
  limit: z.coerce.number().int().min(1).max(1000).default(100),
});

type On = { state: SandboxState };

const status = (c: Ctx, { state }: On) => {
  const task = state.tasks.get(c.req.param("id") ?? "");
  if (!task) return notFound(c, "Task");
  return { task: state.tasks.record(task) };
};

const results = (c: Ctx, { state }: On) => {
  const task = state.tasks.get(c.req.param("id") ?? "");
  if (!task) return notFound(c, "Task");
  if (state.tasks.state(task) === "pending") {
    return errorResponse(
      c,
      400,
      `Task ${task.id} is still pending; results exist once its state is success or error`,
    );
  }
  return state.tasks.result(task);
};

const batchOf = (c: Ctx, { state }: On) => state.batches.get(c.req.param("id") ?? "");

export const TASK_ROUTES: Route[] = [
  {
    method: "GET",
    1: { path: "/v1/tasks/:id", live: live.taskStatus },
    2: { path: "/v2/tasks/:id", reply: v2.taskStatus },
    handle: status,
  },
  {
    method: "GET",
    1: { path: "/v1/tasks/:id/results", live: live.taskResult },
    2: { path: "/v2/tasks/:id/results", reply: v2.taskResults },
    handle: results,
  },
  { method: "GET", 1: { path: "/legacy/api/v1/tasks/:id" }, handle: status },
  { method: "GET", 1: { path: "/legacy/api/v1/tasks/:id/results" }, handle: results },
  {
    method: "GET",
    1: { path: "/v1/tasks", live: live.taskList },
    2: { path: "/v2/tasks", reply: v2.taskList },
    handle: (c, { state }) => {
      const query = parseQuery(c, TaskListQuery);
      if (!query.ok) return query.response;
      const page = state.tasks.list(query.data.cursor, query.data.limit);
      return { tasks: page.tasks.map((t) => state.tasks.record(t)), next_cursor: page.nextCursor };
    },
  },
  {
    method: "GET",
    1: { path: "/v1/batches" },
    2: { path: "/v2/batches", reply: v2.batchList },
    handle: (_c, { state }) => ({ batches: state.batches.all().map((b) => state.batches.summary(b)) }),
  },
  {
    method: "GET",
    1: { path: "/v1/batches/:id", live: live.batchDetail },
    2: { path: "/v2/batches/:id", reply: v2.batchDetail },
    handle: (c, on) => {
      const batch = batchOf(c, on);
      if (!batch) return notFound(c, "Batch");
      return { ...on.state.batches.summary(batch), tasks: on.state.batches.states(batch) };
    },
  },
  {
    method: "GET",
    1: { path: "/v1/batches/:id/progress", live: live.batchProgress },
    2: { path: "/v2/batches/:id/progress", reply: v2.batchProgress },
    handle: (c, on) => {
      const batch = batchOf(c, on);
      return batch ? on.state.batches.progress(batch) : notFound(c, "Batch");
    },
  },
];
