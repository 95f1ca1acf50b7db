/**
 * GET /v2/jobs/{job_id}/runs, GET /v2/jobs/runs/{run_id}/artifacts/{artifact_id}/download-url (both
 * listed by the generation-1 spec too), and the pre-signed-style download itself at
 * /downloads/artifacts/... (no bearer, like a bucket URL).
 */
import { pageQuery } from "../../api/schemas.js";
import * as live from "../dialect.js";
import { notFound, parseQuery } from "../http.js";
import { artifactJsonl } from "../jobs.js";
import type { Route } from "../routing.js";

/** The listing's limit/offset query (one schema, built once: zod compiles each on first use). */
const JOBS_QUERY = pageQuery(200, 20);

const URL_LIFETIME_MS = 15 * 60_000;

export const JOB_ROUTES: Route[] = [
  {
    method: "GET",
    2: { path: "/v2/jobs/:jobId/runs", specV2: true, live: live.jobRuns },
    handle: (c, { state }) => {
      const query = parseQuery(c, JOBS_QUERY);
      if (!query.ok) return query.response;
      const runs = state.jobs.runsOf(c.req.param("jobId") ?? "");
      if (!runs) return notFound(c, `Job '${c.req.param("jobId")}'`);
      const { limit, offset } = query.data;
      return { items: runs.slice(offset, offset + limit), limit, offset, total: runs.length };
    },
  },
  {
    method: "GET",
    2: {
      path: "/v2/jobs/runs/:runId/artifacts/:artifactId/download-url",
      specV2: true,
      live: live.downloadUrl,
    },
    handle: (c, { state }) => {
      const run = state.jobs.run(c.req.param("runId") ?? "");
      const artifactId = c.req.param("artifactId") ?? "";
      if (!run) return notFound(c, "Job run");
      if (!run.artifact_ids?.includes(artifactId)) return notFound(c, "Artifact");
      const expires = Date.now() + URL_LIFETIME_MS;
      return {
        url: `${state.location.url}/downloads/artifacts/${run.id}/${artifactId}.jsonl?expires=${expires}`,
        expires_at: new Date(expires).toISOString(),
      };
    },
  },
  {
    // The download itself: not an API route of either generation, answered alike.
    method: "GET",
    1: { path: "/downloads/artifacts/:runId/:file" },
    handle: (c, { state }) => {
      const run = state.jobs.run(c.req.param("runId") ?? "");
      const artifactId = (c.req.param("file") ?? "").replace(/\.jsonl$/, "");
      if (!run?.artifact_ids?.includes(artifactId)) return notFound(c, "Artifact");
      const expires = Number(c.req.query("expires"));
      if (!Number.isFinite(expires) || expires < Date.now())
        return c.json({ error: { code: "FORBIDDEN", message: "Download URL expired" } }, 403);
      return c.body(artifactJsonl(run, artifactId), 200, { "content-type": "application/x-ndjson" });
    },
  },
];
