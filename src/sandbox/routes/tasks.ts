/**
 * Task status, results and listing, and the batch endpoints. Task status and results are also
 * served under {legacy_base_url}/api/v1/tasks/..., where task records' status_url and
 * download_url point.
 */
import { Hono } from "hono";
import { z } from "zod";
import type { SandboxState } from "../context.js";
import { type Ctx, errorResponse, notFound, parseQuery, type SandboxEnv } from "../http.js";

const TaskListQuery = z.object({
  cursor: z
    .string()
    .regex(/^[0-9a-z]{1,12}$/, "cursor must be a next_cursor value from a previous page")
    .optional(),
  limit: z.coerce.number().int().min(1).max(1000).default(100),
});

export function taskRoutes(state: SandboxState) {
  const r = new Hono<SandboxEnv>();
  const { tasks, batches } = state;

  const status = (c: Ctx) => {
    const task = tasks.get(c.req.param("id") ?? "");
    if (!task) return notFound(c, "Task");
    return c.json({ task: tasks.record(task) });
  };
  const results = (c: Ctx) => {
    const task = tasks.get(c.req.param("id") ?? "");
    if (!task) return notFound(c, "Task");
    if (tasks.state(task) === "pending") {
      return errorResponse(
        c,
        400,
        `Task ${task.id} is still pending; results exist once its state is success or error`,
      );
    }
    return c.json(tasks.result(task));
  };

  r.on("GET", ["/v1/tasks/:id", "/v2/tasks/:id"], status);
  r.on("GET", ["/v1/tasks/:id/results", "/v2/tasks/:id/results"], results);
  r.get("/legacy/api/v1/tasks/:id", status);
  r.get("/legacy/api/v1/tasks/:id/results", results);

  r.on("GET", ["/v1/tasks", "/v2/tasks"], (c) => {
    const query = parseQuery(c, TaskListQuery);
    if (!query.ok) return query.response;
    const page = tasks.list(query.data.cursor, query.data.limit);
    return c.json({ tasks: page.tasks.map((t) => tasks.record(t)), next_cursor: page.nextCursor });
  });

  r.on("GET", ["/v1/batches", "/v2/batches"], (c) =>
    c.json({ batches: batches.all().map((b) => batches.summary(b)) }),
  );

  r.on("GET", ["/v1/batches/:id", "/v2/batches/:id"], (c) => {
    const batch = batches.get(c.req.param("id"));
    if (!batch) return notFound(c, "Batch");
    return c.json({ ...batches.summary(batch), tasks: batches.states(batch) });
  });

  r.on("GET", ["/v1/batches/:id/progress", "/v2/batches/:id/progress"], (c) => {
    const batch = batches.get(c.req.param("id"));
    if (!batch) return notFound(c, "Batch");
    return c.json(batches.progress(batch));
  });

  return r;
}
