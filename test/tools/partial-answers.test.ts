/**
 * Answers that carry what a model needs next, and keep what arrived: `generate_template` names the
 * generated version (to publish it, or to see which version a refinement started from), and
 * `job_runs {run_id}` keeps the artifact list when the run's detail (or the preview) cannot be
 * read, saying what was not read. Against the sandbox, its faults on exactly one route.
 */
import { afterEach, describe, expect, it } from "vitest";
import type { Sandbox } from "../../src/sandbox/index.js";
import { inProcessAgainst } from "../helpers/in-process.js";
import { call, type McpSession, serverForFile, textOf } from "../helpers/mcp.js";

let sandbox: Sandbox;
let server: McpSession;

serverForFile(
  (started) => {
    ({ sandbox, server } = started);
  },
  { WEBDATA_TOOLSETS: "all", WEBDATA_API_GENERATION: "2" },
  inProcessAgainst,
);

afterEach(() => sandbox.faults.clear());

describe("generate_template", () => {
  it("generate_template(new, then refined): names generated_version_id and the version number", async () => {
    const made = await call(server, "generate_template", {
      prompt: "Extract the title and price",
      url: "https://shop.example.com/p/1",
      name: "partial_answers_product",
    });
    expect(made.isError, textOf(made)).toBeFalsy();
    const first = made.structuredContent;
    expect(first.generated_version_id).toEqual(expect.any(String));
    expect(first.generated_version_id).toBe(first.version.id);
    expect(first.version_number).toBe(1);
    expect(textOf(made)).toContain(`generated_version_id ${first.generated_version_id}`);
    expect(textOf(made)).toContain(
      `manage_template {"action":"update","template":"partial_answers_product","published_version_id":"${first.generated_version_id}"}`,
    );

    const refined = await call(server, "generate_template", {
      from_extract_template: "partial_answers_product",
      prompt: "Also capture the currency",
    });
    expect(refined.isError, textOf(refined)).toBeFalsy();
    const second = refined.structuredContent;
    expect(second.version_number).toBe(2);
    expect(second.source_version_id).toBe(first.generated_version_id);
    expect(second.generated_version_id).not.toBe(first.generated_version_id);
    expect(textOf(refined)).toContain(`refined from version ${first.generated_version_id}`);

    // The id as given publishes that version.
    const published = await call(server, "manage_template", {
      action: "update",
      template: "partial_answers_product",
      published_version_id: first.generated_version_id,
    });
    expect(published.isError, textOf(published)).toBeFalsy();
    expect(published.structuredContent.published_version_id).toBe(first.generated_version_id);
  });
});

describe("job_runs", () => {
  /** A run of the sandbox's daily job that has artifacts. */
  async function aRun(): Promise<{ run: string; artifacts: string[] }> {
    const runs = await call(server, "job_runs", { job_id: "job_daily_prices" });
    expect(runs.isError, textOf(runs)).toBeFalsy();
    const run = runs.structuredContent.runs.find((r: { artifact_ids?: string[] }) => r.artifact_ids?.length);
    return { run: run.id, artifacts: run.artifact_ids };
  }

  it("job_runs(run_id, both reads answer): the run and its artifacts, nothing unread", async () => {
    const { run } = await aRun();
    const r = await call(server, "job_runs", { run_id: run });
    expect(r.isError, textOf(r)).toBeFalsy();
    expect(r.structuredContent.run.id).toBe(run);
    expect(r.structuredContent.artifacts.length).toBeGreaterThan(0);
    expect(r.structuredContent.unread).toBeUndefined();
    expect(textOf(r)).not.toContain("Not read");
  });

  it.each([404, 503])(
    "job_runs(run_id, the run's detail answers %i): the artifacts, and what was not read",
    async (status) => {
      const { run, artifacts } = await aRun();
      sandbox.faults.add({ kind: "status", status, match: `GET /v2/jobs/runs/${run}$` });
      const r = await call(server, "job_runs", { run_id: run });
      expect(r.isError, textOf(r)).toBeFalsy();
      const s = r.structuredContent;
      expect(s.artifacts.map((a: { id: string }) => a.id)).toEqual(artifacts);
      expect(s.run).toBeUndefined();
      expect(s.unread).toHaveLength(1);
      expect(s.unread[0]).toMatch(new RegExp(`^the run's detail: ${status} `));
      const text = textOf(r);
      expect(text).toContain(`Run ${run}: status not read.`);
      expect(text).toContain(`artifact ${artifacts[0]}`);
      expect(text).toContain("Not read: the run's detail");
      // The fault hit the detail only: the artifact list was read once, and answered.
      const reads = sandbox.requests.filter((q) => q.path === `/v2/jobs/runs/${run}/artifacts`);
      expect(reads.at(-1)?.status).toBe(200);
    },
  );

  it("job_runs(run_id, the artifact list answers 404): the main part missing fails the call", async () => {
    const { run } = await aRun();
    sandbox.faults.add({ kind: "status", status: 404, match: `GET /v2/jobs/runs/${run}/artifacts$` });
    const r = await call(server, "job_runs", { run_id: run });
    expect(r.isError).toBe(true);
  });

  it("job_runs(artifact_id, preview answers 404): the download URL, and the preview named as not read", async () => {
    const { run, artifacts } = await aRun();
    sandbox.faults.add({ kind: "status", status: 404, match: "/preview" });
    const r = await call(server, "job_runs", { run_id: run, artifact_id: artifacts[0], preview: true });
    expect(r.isError, textOf(r)).toBeFalsy();
    expect(r.structuredContent.download.url).toMatch(/^http/);
    expect(r.structuredContent.download.preview).toBeUndefined();
    expect(r.structuredContent.unread).toEqual([expect.stringMatching(/^the preview: 404 /)]);
    expect(textOf(r)).toContain("Not read: the preview");
  });
});
