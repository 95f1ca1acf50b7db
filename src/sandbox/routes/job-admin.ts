/**
 * Job administration (§15; generation 1 §18): jobs CRUD, triggering a run, run detail and cancel,
 * and the run's artifacts (list, one, preview). Generation 2 under /v2/jobs (runs addressed as
 * /v2/jobs/runs/{run_id}), generation 1 under /v1/jobs (runs nested under their job, `agent_name`
 * for `extract_template_name`, `page`/`per_page` listings). The runs listing and download URL of
 * generation 2 are in routes/jobs.ts.
 */
import { Hono } from "hono";
import { z } from "zod";
import { JobCreateSchema, JobUpdateSchema } from "../../api/schemas-v2.js";
import type { SandboxState } from "../context.js";
import { FAULT_HEADER } from "../faults.js";
import {
  type Ctx,
  errorResponse,
  notFound,
  parseBody,
  parseQuery,
  type SandboxEnv,
  validationResponse,
} from "../http.js";
import type { Job } from "../lifecycle/job-store.js";

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

type Gen = 1 | 2;
const runIdOf = (c: Ctx) => c.req.param("runId") ?? "";
const view = (job: Job, gen: Gen) => {
  if (gen === 2) return job;
  const { extract_template_name, ...rest } = job;
  return { ...rest, agent_name: extract_template_name };
};

export function jobAdminRoutes(state: SandboxState) {
  const r = new Hono<SandboxEnv>();
  const jobs = state.jobs;

  const v1Page = <T>(c: Ctx, all: T[]) => {
    const q = parseQuery(c, V1_PAGE);
    if (!q.ok) return q.response;
    const { page, per_page } = q.data;
    return c.json({
      items: all.slice((page - 1) * per_page, page * per_page),
      total: all.length,
      page,
      per_page,
    });
  };
  const v2Page = <T>(c: Ctx, all: T[]) => {
    const q = parseQuery(c, V2_PAGE);
    if (!q.ok) return q.response;
    const { limit, offset } = q.data;
    return c.json({ items: all.slice(offset, offset + limit), limit, offset, total: all.length });
  };

  for (const gen of [2, 1] as const) {
    const base = gen === 2 ? "/v2/jobs" : "/v1/jobs";
    const templateKey = gen === 2 ? "extract_template_name" : "agent_name";

    r.post(base, async (c) => {
      const body = await parseBody(c, JobCreateSchema);
      if (!body.ok) return body.response;
      const { agent_name, extract_template_name, ...rest } = body.data;
      const template = gen === 2 ? extract_template_name : agent_name;
      const known = template && (state.templates.versionsOf(template) || state.catalog.get(template));
      if (!known) {
        const msg = template ? `Value error, template '${template}' not found` : "Field required";
        return validationResponse(c, [
          { loc: ["body", templateKey], msg, type: template ? "value_error" : "missing" },
        ]);
      }
      return c.json(view(jobs.create({ ...rest, extract_template_name: template }), gen));
    });
    r.get(base, (c) => {
      const all = jobs.list().map((j) => view(j, gen));
      if (gen === 2) return v2Page(c, all);
      const q = c.req.query("q")?.toLowerCase();
      const agent = c.req.query("agent_name");
      return v1Page(
        c,
        all.filter(
          (j) =>
            (!q || `${j.name} ${j.display_name ?? ""}`.toLowerCase().includes(q)) &&
            (!agent || (j as { agent_name?: string }).agent_name === agent),
        ),
      );
    });
    r.get(`${base}/:jobId{job_[^/]+}`, (c) => {
      const job = jobs.get(c.req.param("jobId"));
      return job ? c.json(view(job, gen)) : notFound(c, `Job '${c.req.param("jobId")}'`);
    });
    r.patch(`${base}/:jobId{job_[^/]+}`, async (c) => {
      if (!jobs.get(c.req.param("jobId"))) return notFound(c, `Job '${c.req.param("jobId")}'`);
      const body = await parseBody(c, JobUpdateSchema);
      if (!body.ok) return body.response;
      return c.json(view(jobs.update(c.req.param("jobId"), body.data)!, gen));
    });
    r.delete(`${base}/:jobId{job_[^/]+}`, (c) =>
      jobs.delete(c.req.param("jobId")) ? c.body(null, 204) : notFound(c, `Job '${c.req.param("jobId")}'`),
    );
    r.post(`${base}/:jobId/runs`, (c) => {
      if (!jobs.get(c.req.param("jobId"))) return notFound(c, `Job '${c.req.param("jobId")}'`);
      const fails = state.faults.take(
        ["task_error"],
        `${c.req.method} ${c.req.path}`,
        c.req.header(FAULT_HEADER),
      );
      return c.json(jobs.trigger(c.req.param("jobId"), fails !== undefined));
    });

    // Run-level routes: /v2/jobs/runs/{run_id}… and /v1/jobs/{job_id}/runs/{run_id}…
    const runPath = gen === 2 ? `${base}/runs/:runId` : `${base}/:jobId/runs/:runId`;
    const runOf = (c: Ctx) => {
      const run = jobs.run(runIdOf(c) ?? "");
      return run && (gen === 2 || run.job_id === c.req.param("jobId")) ? run : undefined;
    };
    if (gen === 1) {
      r.get(`${base}/:jobId/runs`, (c) => {
        const runs = jobs.runsOf(c.req.param("jobId"));
        if (!runs) return notFound(c, `Job '${c.req.param("jobId")}'`);
        const status = c.req.query("status");
        return v1Page(c, status ? runs.filter((x) => x.status === status.toUpperCase()) : runs);
      });
    }
    r.get(runPath, (c) => (runOf(c) ? c.json(jobs.detail(runIdOf(c))) : notFound(c, "Job run")));
    r.post(`${runPath}/cancel`, (c) => {
      if (!runOf(c)) return notFound(c, "Job run");
      const ended = jobs.cancel(runIdOf(c))!;
      if (!ended.cancelled) return errorResponse(c, 409, `The run has already ended (${ended.run.status})`);
      return c.json({ id: ended.run.id, status: ended.run.status });
    });
    r.get(`${runPath}/artifacts`, (c) =>
      runOf(c) ? c.json({ items: jobs.artifacts(runIdOf(c)) }) : notFound(c, "Job run"),
    );
    r.get(`${runPath}/artifacts/:artifactId`, (c) => {
      const artifact =
        runOf(c) && jobs.artifacts(runIdOf(c))?.find((a) => a.id === c.req.param("artifactId"));
      return artifact ? c.json(artifact) : notFound(c, "Artifact");
    });
    r.get(`${runPath}/artifacts/:artifactId/preview`, (c) => {
      const preview = runOf(c) && jobs.preview(runIdOf(c), c.req.param("artifactId"));
      return preview ? c.json(preview) : notFound(c, "Artifact");
    });
  }
  return r;
}
