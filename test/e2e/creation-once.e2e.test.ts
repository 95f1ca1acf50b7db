/**
 * No creating POST (a template generation, a research agent or run, a job, a job run, a media
 * download task) is ever sent twice, on generation 2 and on generation 1 (each creation's own
 * route there): under a 5xx, a reset after the service accepted it, and latency past the call's
 * deadline, each is sent once, and the answer says it may have been created and how to settle
 * it: the call that shows it and, where the service gave an id the creation hangs on (the job of
 * a run, the agent of a research run), that id, in the text and as `_meta["web-data/error"].id`.
 *
 * Media: the spec does not say the media download bills on creation (web-data-api.md names "a
 * media download API with members url and country" only; web-data-api-v2.md §12 gives
 * `POST /v2/media/async` → an async-created task, with no word on billing). Its POST starts a task
 * like every async submission, so it is held to the same rule: the row below runs, not skipped.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Fault, Sandbox } from "../../src/sandbox/index.js";
import { call, type StdioServer, spawnAgainst, startTestSandbox, textOf, until } from "../helpers/mcp.js";

interface Creation {
  label: string;
  /** The creating route (`path` exactly, or a pattern when it holds an id made by the call). */
  path: string | RegExp;
  /** Substring of "POST /path" the fault matches. */
  match: string;
  tool: string;
  args: Record<string, unknown>;
  /** What the answer says to check. */
  check: string | ((id: string) => string);
  /** The id the answer names (a run's job); `fromPath` when it is the id in the created route. */
  id?: string | "fromPath";
}

const job = "job_daily_prices";
/** A creation whose route is the same on both generations but for the version segment. */
const plain = (
  gen: 1 | 2,
  label: string,
  route: string,
  rest: Omit<Creation, "label" | "path" | "match">,
) => ({
  label,
  path: `/v${gen}/${route}`,
  match: `POST /v${gen}/${route}`,
  ...rest,
});
/** The creations both generations make alike; on 1 the generation is named, to check it by name. */
const shared = (gen: 1 | 2): Creation[] => [
  plain(gen, "template generation", gen === 2 ? "extract/templates/generations" : "agents/generations", {
    tool: "generate_template",
    args: {
      prompt: "Extract the title",
      url: "https://shop.example.com/p/1",
      ...(gen === 1 ? { name: "once_gen" } : {}),
    },
    check: gen === 2 ? 'list_agents {"privacy":"private"}' : 'list_agents {"name":"once_gen"}',
  }),
  plain(gen, "research agent", gen === 2 ? "agents" : "task-agents", {
    tool: "manage_research_agent",
    args: { action: "create", template: "market_research" },
    check: "list_research_agents {}",
  }),
  plain(gen, "job", "jobs", {
    tool: "manage_job",
    args: { action: "create", name: "once", extract_template_name: "ecommerce_product" },
    check: "job_runs {}",
  }),
  plain(gen, "job run", `jobs/${job}/runs`, {
    tool: "manage_job",
    args: { action: "trigger", job_id: job },
    check: `job_runs {"job_id":"${job}"}`,
    id: job,
  }),
  plain(gen, "media download task", "media/async", {
    tool: "download_media",
    args: { url: "https://cdn.example.com/boots.png" },
    check: "get_task {}",
  }),
];
const CREATIONS: Record<1 | 2, Creation[]> = {
  2: [
    plain(2, "research run", "agents/runs", {
      tool: "research",
      args: { input: "tents" },
      check: "list_research_agents {}",
    }),
    ...shared(2),
  ],
  1: [
    {
      // generation 1 has no one-shot route: an agent is made first (not faulted), then its run
      label: "research run",
      path: /^\/v1\/task-agents\/[^/]+\/runs$/,
      match: "POST /v1/task-agents/",
      tool: "research",
      args: { input: "tents" },
      check: (id) => `the run list of research agent ${id}`,
      id: "fromPath",
    },
    ...shared(1),
  ],
};
const FAULTS: Array<[string, (match: string) => Fault]> = [
  ["a 503", (match) => ({ kind: "status", status: 503, match })],
  ["a reset after acceptance", (match) => ({ kind: "reset", after: "accept", match })],
  ["latency past the deadline", (match) => ({ kind: "latency", ms: 600_000, match })],
];

describe.each([2, 1] as const)("generation %i", (gen) => {
  let sandbox: Sandbox;
  let server: StdioServer;
  beforeAll(async () => {
    sandbox = await startTestSandbox({ taskLatencyMs: 30 });
    server = await spawnAgainst(sandbox, {
      WEBDATA_TOOLSETS: "all",
      WEBDATA_WAIT_MS: "1500",
      WEBDATA_API_GENERATION: String(gen),
    });
  });
  afterAll(async () => {
    await server?.close();
    await sandbox?.close();
  });

  describe.each(CREATIONS[gen])("$label", (creation) => {
    it.each(FAULTS)(
      "under %s: sent once; the answer says it may have been created and what settles it",
      async (_n, fault) => {
        const from = sandbox.requests.length;
        const created = () =>
          sandbox.requests
            .slice(from)
            .filter(
              (q) =>
                q.method === "POST" &&
                (typeof creation.path === "string" ? q.path === creation.path : creation.path.test(q.path)),
            );
        sandbox.faults.add(fault(creation.match));
        let r: Awaited<ReturnType<typeof call>>;
        try {
          r = await call(server, creation.tool, creation.args);
        } finally {
          // Also ends the hold of a slowed request, which the sandbox logs when it ends.
          sandbox.faults.clear();
        }
        await until(created, (sent) => sent.length > 0);
        expect(created()).toHaveLength(1);

        const text = textOf(r);
        expect(r.isError, text).toBe(true);
        expect(text).toMatch(/may have been (created|accepted)/);
        const id = creation.id === "fromPath" ? created()[0].path.split("/")[3] : creation.id;
        const check = typeof creation.check === "string" ? creation.check : creation.check(id as string);
        expect(text).toContain(`check with ${check}`);
        const meta = r._meta?.["web-data/error"] as { id?: string } | undefined;
        if (id === undefined) expect(meta?.id).toBeUndefined();
        else {
          expect(text).toContain(id);
          expect(meta?.id).toBe(id);
        }
      },
      30_000,
    );
  });
});
