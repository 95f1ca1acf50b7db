/**
 * GET /v2/jobs/{job_id}/runs, GET /v2/jobs/runs/{run_id}/artifacts/{artifact_id}/download-url, and
 * the pre-signed-style download itself at /downloads/artifacts/... (no bearer, like a bucket URL).
 */
import { Hono } from "hono";
import { pageQuery } from "../../api/schemas.js";
import type { SandboxState } from "../context.js";
import { notFound, parseQuery, type SandboxEnv } from "../http.js";
import { artifactJsonl } from "../jobs.js";

const URL_LIFETIME_MS = 15 * 60_000;

export function jobRoutes(state: SandboxState) {
  const r = new Hono<SandboxEnv>();

  r.get("/v2/jobs/:jobId/runs", (c) => {
    const query = parseQuery(c, pageQuery(200, 20));
    if (!query.ok) return query.response;
    const runs = state.jobs.runsOf(c.req.param("jobId"));
    if (!runs) return notFound(c, `Job '${c.req.param("jobId")}'`);
    const { limit, offset } = query.data;
    return c.json({ items: runs.slice(offset, offset + limit), limit, offset, total: runs.length });
  });

  r.get("/v2/jobs/runs/:runId/artifacts/:artifactId/download-url", (c) => {
    const run = state.jobs.run(c.req.param("runId"));
    const artifactId = c.req.param("artifactId");
    if (!run) return notFound(c, "Job run");
    if (!run.artifact_ids?.includes(artifactId)) return notFound(c, "Artifact");
    const expires = Date.now() + URL_LIFETIME_MS;
    return c.json({
      url: `${state.location.url}/downloads/artifacts/${run.id}/${artifactId}.jsonl?expires=${expires}`,
      expires_at: new Date(expires).toISOString(),
    });
  });

  r.get("/downloads/artifacts/:runId/:file", (c) => {
    const run = state.jobs.run(c.req.param("runId"));
    const artifactId = c.req.param("file").replace(/\.jsonl$/, "");
    if (!run?.artifact_ids?.includes(artifactId)) return notFound(c, "Artifact");
    const expires = Number(c.req.query("expires"));
    if (!Number.isFinite(expires) || expires < Date.now())
      return c.json({ error: { code: "FORBIDDEN", message: "Download URL expired" } }, 403);
    return c.body(artifactJsonl(run, artifactId), 200, { "content-type": "application/x-ndjson" });
  });

  return r;
}
