/**
 * Job administration (§15; generation 1 §18): jobs CRUD, triggering a run, run detail and cancel,
 * and the run's artifacts (list, one, preview), both generations side by side. Generation 2
 * under /v2/jobs (runs addressed as /v2/jobs/runs/{run_id}), generation 1 under /v1/jobs (runs
 * nested under their job, `agent_name` for `extract_template_name`, `page`/`per_page`
 * listings). The runs listing and download URL of generation 2 are in routes/jobs.ts.
 */
import { z } from "zod";
import { JobCreateSchema, JobUpdateSchema } from "../../api/schemas-v2.js";
import type { SandboxState } from "../context.js";
import { FAULT_HEADER } from "../faults.js";
import { type Ctx, errorResponse, notFound, parseBody, parseQuery, validationResponse } from "../http.js";
import type { Job } from "../lifecycle/job-store.js";
import { type Route, route, type Shape } from "../routing.js";

const V1_PAGE = z.object({
  page: z.coerce.number().int().min(1).default(1),
  per_page: z.coerce.number().int().min(1).max(200).default(20),
  q: z.string().optional(),
  agent_name: z.string().optional(),
  status: z.string().optional(),
});
const V2_PAGE = z.object({
  limit: z.coerce.number().int().min(1).max(200).default(20),
  offset: z.coerce.number().int().min(0).default(0),
});

/** Generation 1 pages by `page`/`per_page`. */
const v1Page = <T>(c: Ctx, all: T[]) => {
  const q = parseQuery(c, V1_PAGE);
  if (!q.ok) return q.response;
  const { page, per_page } = q.data;
  return { items: all.slice((page - 1) * per_page, page * per_page), total: all.length, page, per_page };
};
/** Generation 2 pages by `limit`/`offset`. */
const v2Page = <T>(c: Ctx, all: T[]) => {
  const q = parseQuery(c, V2_PAGE);
  if (!q.ok) return q.response;
  const { limit, offset } = q.data;
  return { items: all.slice(offset, offset + limit), limit, offset, total: all.length };
};

/** Generation 1 names a job's template `agent_name`. */
const v1Job = (job: Job) => {
  const { extract_template_name, ...rest } = job;
  return { ...rest, agent_name: extract_template_name };
};
const v1JobReply: Shape = (b) => v1Job(b);
const v1JobPage: Shape = (b) => ({ ...b, items: b.items.map(v1Job) });

/** Generation 1's listing filters by `q` (name) and `agent_name`. */
const v1List = (c: Ctx, all: Job[]) => {
  const q = c.req.query("q")?.toLowerCase();
  const agent = c.req.query("agent_name");
  const found = all.filter(
    (j) =>
      (!q || `${j.name} ${j.display_name ?? ""}`.toLowerCase().includes(q)) &&
      (!agent || j.extract_template_name === agent),
  );
  return v1Page(c, found);
};

type JobSide = { template: "agent_name" | "extract_template_name" };
type ListSide = { list: (c: Ctx, all: Job[]) => Response | object };

const jobId = (c: Ctx) => c.req.param("jobId") ?? "";
const runId = (c: Ctx) => c.req.param("runId") ?? "";
const ONE_JOB = {
  1: { path: "/v1/jobs/:jobId{job_[^/]+}", reply: v1JobReply },
  2: { path: "/v2/jobs/:jobId{job_[^/]+}" },
};

export const JOB_ADMIN_ROUTES: Route[] = [
  route<JobSide>({
    method: "POST",
    1: { path: "/v1/jobs", template: "agent_name", reply: v1JobReply },
    2: { path: "/v2/jobs", template: "extract_template_name" },
    handle: async (c, { state, side }) => {
      const body = await parseBody(c, JobCreateSchema);
      if (!body.ok) return body.response;
      const { agent_name: _a, extract_template_name: _e, ...rest } = body.data;
      const template = body.data[side.template];
      const known = template && (state.templates.versionsOf(template) || state.catalog.get(template));
      if (!known) {
        const msg = template ? `Value error, template '${template}' not found` : "Field required";
        const type = template ? "value_error" : "missing";
        return validationResponse(c, [{ loc: ["body", side.template], msg, type }]);
      }
      return state.jobs.create({ ...rest, extract_template_name: template });
    },
  }),
  route<ListSide>({
    method: "GET",
    1: { path: "/v1/jobs", list: v1List, reply: v1JobPage },
    2: { path: "/v2/jobs", list: v2Page },
    handle: (c, { state, side }) => side.list(c, state.jobs.list()),
  }),
  {
    method: "GET",
    ...ONE_JOB,
    handle: (c, { state }) => state.jobs.get(jobId(c)) ?? notFound(c, `Job '${jobId(c)}'`),
  },
  {
    method: "PATCH",
    ...ONE_JOB,
    handle: async (c, { state }) => {
      if (!state.jobs.get(jobId(c))) return notFound(c, `Job '${jobId(c)}'`);
      const body = await parseBody(c, JobUpdateSchema);
      if (!body.ok) return body.response;
      return state.jobs.update(jobId(c), body.data)!;
    },
  },
  {
    method: "DELETE",
    ...ONE_JOB,
    handle: (c, { state }) =>
      state.jobs.delete(jobId(c)) ? c.body(null, 204) : notFound(c, `Job '${jobId(c)}'`),
  },
  {
    method: "POST",
    1: { path: "/v1/jobs/:jobId/runs" },
    2: { path: "/v2/jobs/:jobId/runs" },
    handle: (c, { state }) => {
      if (!state.jobs.get(jobId(c))) return notFound(c, `Job '${jobId(c)}'`);
      const fails = state.faults.take(
        ["task_error"],
        `${c.req.method} ${c.req.path}`,
        c.req.header(FAULT_HEADER),
      );
      return state.jobs.trigger(jobId(c), fails !== undefined);
    },
  },
  {
    // Generation 2's listing of a job's runs is routes/jobs.ts (the generation-1 spec lists it).
    method: "GET",
    1: { path: "/v1/jobs/:jobId/runs" },
    handle: (c, { state }) => {
      const runs = state.jobs.runsOf(jobId(c));
      if (!runs) return notFound(c, `Job '${jobId(c)}'`);
      const status = c.req.query("status");
      return v1Page(c, status ? runs.filter((x) => x.status === status.toUpperCase()) : runs);
    },
  },
  ...runRoutes(),
];

/** Run-level routes: /v2/jobs/runs/{run_id}… and /v1/jobs/{job_id}/runs/{run_id}… */
function runRoutes(): Route[] {
  const run = (tail: string) => ({
    1: { path: `/v1/jobs/:jobId/runs/:runId${tail}` },
    2: { path: `/v2/jobs/runs/:runId${tail}` },
  });
  /** The run, when it exists (and, in generation 1, belongs to the job in the path). */
  const runOf = (c: Ctx, { state }: { state: SandboxState }) => {
    const found = state.jobs.run(runId(c));
    const job = c.req.param("jobId");
    return found && (job === undefined || found.job_id === job) ? found : undefined;
  };
  return [
    {
      method: "GET",
      ...run(""),
      handle: (c, on) => (runOf(c, on) ? on.state.jobs.detail(runId(c))! : notFound(c, "Job run")),
    },
    {
      method: "POST",
      ...run("/cancel"),
      handle: (c, on) => {
        if (!runOf(c, on)) return notFound(c, "Job run");
        const ended = on.state.jobs.cancel(runId(c))!;
        if (!ended.cancelled) return errorResponse(c, 409, `The run has already ended (${ended.run.status})`);
        return { id: ended.run.id, status: ended.run.status };
      },
    },
    {
      method: "GET",
      ...run("/artifacts"),
      handle: (c, on) =>
        runOf(c, on) ? { items: on.state.jobs.artifacts(runId(c)) } : notFound(c, "Job run"),
    },
    {
      method: "GET",
      ...run("/artifacts/:artifactId"),
      handle: (c, on) => {
        const artifact =
          runOf(c, on) && on.state.jobs.artifacts(runId(c))?.find((a) => a.id === c.req.param("artifactId"));
        return artifact || notFound(c, "Artifact");
      },
    },
    {
      method: "GET",
      ...run("/artifacts/:artifactId/preview"),
      handle: (c, on) => {
        const preview = runOf(c, on) && on.state.jobs.preview(runId(c), c.req.param("artifactId") ?? "");
        return preview || notFound(c, "Artifact");
      },
    },
  ];
}
