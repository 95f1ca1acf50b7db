/**
 * Generation 2 of the API beside generation 1, as the service serves both (web-data-api-v2.md).
 * The generation-2 side of a route shares its handler with generation 1 (the route tables of
 * routes/ put both sides side by side); these are the `reply` shapes of its generation-2 sides
 * (§3–§11 of the reference): async submissions `{status: "success", task: <record>}`, task
 * records with `queued`/`in_progress`, cursor lists `{data, pagination}`, batch detail and
 * progress with `id` and `status: "success"` and no `total`. Generation-2 shapes do not depend on
 * the dialect, which is a generation-1 matter.
 */
import type { SandboxState } from "./context.js";
import { liveTask, taskPage } from "./dialect.js";
import type { Shape } from "./routing.js";

type Obj = Record<string, any>;

const isObj = (v: unknown): v is Obj => typeof v === "object" && v !== null && !Array.isArray(v);

/** A task's generation-2 record, or null when the id names none. */
const record = (state: SandboxState, id: unknown) => {
  const task = typeof id === "string" ? state.tasks.get(id) : undefined;
  return task ? liveTask(state.tasks.record(task)) : null;
};

const progress = (b: Obj, id: string) => ({
  id,
  status: "success",
  completed: b.completed,
  completed_count: b.completed_count,
  progress: b.progress,
  completed_at: b.completed ? new Date().toISOString() : null,
});

const lastSegment = (path: string, from = 1) => path.split("/").at(-from) ?? "";

/** `{task_id}` → `{status: "success", task: <record>}`. */
export const submitted: Shape = (b, { state }) =>
  isObj(b) && typeof b.task_id === "string" ? { status: "success", task: record(state, b.task_id) } : b;

/** A batch submission with its tasks' full records. */
export const batchCreated: Shape = (b, { state }) =>
  isObj(b) ? { ...b, tasks: (b.tasks ?? []).map((t: Obj) => record(state, t?.id) ?? t) } : b;

export const taskStatus: Shape = (b, { state }) =>
  isObj(b) ? { task: record(state, b.task?.id) ?? b.task } : b;

export const taskResults: Shape = (b, { state }) =>
  isObj(b) ? { ...b, task: record(state, b.task_id) ?? b.task } : b;

export const taskList: Shape = (b) => (isObj(b) ? taskPage(b) : b);

export const batchList: Shape = (b, { state }) =>
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
    : b;

export const batchProgress: Shape = (b, { path }) => (isObj(b) ? progress(b, lastSegment(path, 2)) : b);

export const batchDetail: Shape = (b, { state, path }) =>
  isObj(b)
    ? {
        ...progress(b, lastSegment(path)),
        progress: b.batch_size > 0 ? b.completed_count / b.batch_size : 1,
        created_at: b.created_at,
        tasks: (b.tasks ?? []).map((t: Obj) => record(state, t?.id)),
      }
    : b;
