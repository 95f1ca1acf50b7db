/**
 * The fault matrix: every tool × each sandbox fault, through one built stdio server per test
 * file. Each cell names the outcome the retry policy and the waiting rules promise
 * (src/api/retry.ts, DESIGN.md), checks the call ends within its deadline (generous slack: no
 * speed is measured here), and that the server keeps serving afterwards. The columns are split
 * over the faults-*.test.ts files so they run in parallel workers (most of a cell's time is the
 * waiting the fault asks for, not CPU).
 */
import { existsSync } from "node:fs";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import type { Fault } from "../../src/sandbox/index.js";
import { ALL_TOOLS } from "../../src/tools/registry.js";
import { toolAnnotations } from "../../src/tools/tool.js";
import { requestsSince, type ToolCall } from "../helpers/mcp.js";
import { crashLines, errorCodeOf, type Hardened, harden, secretLeaks, textOf } from "./harness.js";

/** The server's wait limit; the deadline files use a shorter one (their cells wait it out). */
const WAIT_MS = 1500;
const DEADLINE_WAIT_MS = 600;
/** Far past the deadline, so a call that does not stop at its deadline is caught. */
const SLOW_MS = 15_000;
/** Deadline slack for a loaded CI machine; still well under SLOW_MS. */
const SLACK_MS = 6_000;

type Shape = "short" | "long";
interface Row {
  tool: string;
  label: string;
  shape: Shape;
  /** "METHOD /path" of the request that starts billed work (absent: the tool only reads). */
  submission?: string;
  /** Requests the tool polls with, for a latency fault that hits the wait and not the submission. */
  polls?: string;
  /** Answers from memory (e.g. the agent catalog fetched at start): no request, so no fault applies. */
  cached?: boolean;
  args: (h: Hardened) => Record<string, unknown>;
}

/**
 * Rows come from the registry: each tool's examples (they work on the sandbox), except tools that
 * delete (a repeated call finds nothing left; their faults are covered by their own tests). What
 * a row submits and polls is read from the sandbox's request log of one unfaulted call, so a new
 * tool joins the matrix with no edit here. Variants the examples do not show are added below.
 */
const VARIANTS: Array<Pick<Row, "tool" | "label" | "args">> = [
  {
    tool: "extract_page",
    label: "extract_page (rendered, polled)",
    args: (h) => ({ url: `${h.sandbox.siteUrl}/about`, render: true }),
  },
];
/** POSTs the retry policy treats as reads (src/api/retry.ts): retried, never "may have been accepted". */
const READ_POSTS = ["POST /v1/domain-health/check", "POST /legacy/"];

const ROW_SEEDS = [
  ...ALL_TOOLS.filter((t) => !toolAnnotations(t).destructiveHint).flatMap((t) =>
    (t.examples ?? []).map((example, i) => ({
      tool: t.name,
      label: `${t.name} (example ${i + 1})`,
      args: () => ({ ...example }),
    })),
  ),
  ...VARIANTS,
];
/** One test file's server and rows (a module shared by the files' worker keeps none of its own). */
interface Matrix {
  h: Hardened;
  rows: Row[];
  waitMs: number;
}

/**
 * The row a tool's unfaulted call makes once its caches are warm (the second of two calls, as
 * every cell's call is): its first billed submission, the reads it polls with.
 */
async function probe(h: Hardened, seed: (typeof ROW_SEEDS)[number]): Promise<Row> {
  const def = ALL_TOOLS.find((t) => t.name === seed.tool)!;
  await resumeWhilePending(h, await h.call(seed.tool, seed.args(h)));
  const from = h.sandbox.requests.length;
  const direct = await h.call(seed.tool, seed.args(h));
  // The call's own requests: not the agent catalog's background reads, nor what a resume polls.
  const seen = requestsSince(h.sandbox, from).map((q) => `${q.method} ${q.path}`);
  const r = await resumeWhilePending(h, direct);
  expect(r.isError, `${seed.label}: ${JSON.stringify(r).slice(0, 300)}`).toBeFalsy();
  const at = seen.findIndex((q) => !q.startsWith("GET ") && !READ_POSTS.some((p) => q.startsWith(p)));
  const poll = at < 0 ? undefined : seen.slice(at + 1).find((q) => q.startsWith("GET "));
  return {
    ...seed,
    shape: def.longRunning ? "long" : "short",
    submission: at < 0 ? undefined : seen[at],
    polls: poll && `${poll.split("/").slice(0, 3).join("/")}/`,
    cached: seen.length === 0,
  };
}

/** What a cell must end in. */
type Outcome =
  | { kind: "success" }
  | { kind: "pending" }
  /** A task or crawl fault: the failure shows when the work was created (the fault was used up). */
  | { kind: "work_failure" }
  | { kind: "error"; codes: string[]; maybeAccepted?: boolean };

interface Column {
  name: string;
  faults(row: Row): Fault[];
  expect(row: Row): Outcome;
}

const success: Outcome = { kind: "success" };
const maybeAccepted = (codes: string[]): Outcome => ({ kind: "error", codes, maybeAccepted: true });

const COLUMNS: Column[] = [
  {
    name: "a burst of 429s",
    faults: () => [{ kind: "rate_limit", count: 3, retryAfter: 0 }],
    expect: () => success,
  },
  {
    name: "a 503 on a read",
    faults: (row) => [{ kind: "status", status: 503, count: 1, match: row.submission ? "GET /" : undefined }],
    expect: () => success,
  },
  {
    name: "a 502 on the submission",
    faults: (row) => [{ kind: "status", status: 502, count: 1, match: row.submission }],
    expect: (row) => (row.submission ? maybeAccepted(["upstream_error"]) : success),
  },
  {
    name: "5xx on every request",
    faults: () => [{ kind: "status", status: 500 }],
    expect: (row) =>
      row.submission ? maybeAccepted(["upstream_error"]) : { kind: "error", codes: ["upstream_error"] },
  },
  {
    name: "a connection reset",
    faults: (row) => [{ kind: "reset", count: 1, match: row.submission }],
    expect: (row) => (row.submission ? maybeAccepted(["network_error", "upstream_error"]) : success),
  },
  {
    name: "a malformed JSON body",
    faults: (row) => [{ kind: "malformed", count: 1, match: row.submission }],
    expect: () => ({ kind: "error", codes: ["invalid_response"] }),
  },
  {
    name: "a task ending in error",
    faults: () => [{ kind: "task_error", count: 1 }],
    expect: () => ({ kind: "work_failure" }),
  },
  {
    name: "a crawl that fails",
    faults: () => [{ kind: "crawl_fail", count: 1 }],
    expect: () => ({ kind: "work_failure" }),
  },
  {
    name: "latency past the deadline",
    // Every poll is slow (a tool may also read a stream under the same prefix, e.g. research events).
    faults: (row) => [
      row.polls
        ? { kind: "latency", ms: SLOW_MS, match: row.polls }
        : { kind: "latency", ms: SLOW_MS, count: 1, match: row.submission },
    ],
    expect: (row) =>
      row.polls
        ? { kind: "pending" }
        : row.submission
          ? maybeAccepted(["timeout"])
          : { kind: "error", codes: ["timeout"] },
  },
];

const describeOutcome = (o: Outcome) =>
  o.kind === "error"
    ? `${o.codes.join(" or ")}${o.maybeAccepted ? " (may have been accepted)" : ""}`
    : o.kind;

/** `labels`: the rows the file's cells use (only those are probed). */
function hooks(m: Matrix, labels: Set<string>): void {
  beforeAll(async () => {
    const h = await harden({
      waitMs: m.waitMs,
      slackMs: SLACK_MS,
      sandbox: { taskLatencyMs: 30, crawlPageMs: 5 },
    });
    m.h = h;
    // The agent catalog's first fetch is over before faults go in.
    await h.call("list_agents", { name: "news_article" });
    for (const seed of ROW_SEEDS.filter((r) => labels.has(r.label))) m.rows.push(await probe(h, seed));
  }, 120_000);

  afterEach(() => m.h?.sandbox.faults.clear());

  afterAll(async () => {
    const h = m.h;
    if (!h) return;
    try {
      expect(crashLines(h.server.stderr())).toEqual([]);
      expect(secretLeaks(h.captured(), h.key)).toEqual([]);
      expect(secretLeaks(h.captured(), h.legacyAuth)).toEqual([]);
    } finally {
      await h.close();
    }
  }, 60_000);
}

/**
 * A long call that is still pending at its wait limit (a loaded machine) is followed through its
 * resume handle, as an agent would, so "success" means the work ends done, however slow the machine.
 */
async function resumeWhilePending(h: Hardened, first: ToolCall): Promise<ToolCall> {
  let r = first;
  for (let i = 0; i < 20 && !r.isError && r.structuredContent?.status === "pending"; i++) {
    const resume = r.structuredContent.resume as { tool: string; arguments: Record<string, unknown> };
    r = await h.call(resume.tool, resume.arguments);
  }
  return r;
}

/** `workCreated`: the task_error / crawl_fail fault was used up, so the tool's work did fail. */
function check(row: Row, outcome: Outcome, r: ToolCall, workCreated: boolean) {
  const seen = `expected ${describeOutcome(outcome)}, got ${JSON.stringify(r).slice(0, 600)}`;
  switch (outcome.kind) {
    case "work_failure":
      if (!workCreated) return check(row, success, r, false);
      // One failed piece of one-piece work fails the call; of many-piece work it shows in the result.
      if (r.isError) expect(errorCodeOf(r), seen).toBe("task_failed");
      else expect(JSON.stringify(r.structuredContent), seen).toMatch(/error|fail/i);
      break;
    case "success":
      expect(r.isError, seen).toBeFalsy();
      if (row.shape === "long") expect(r.structuredContent?.status, seen).toBe("done");
      break;
    case "pending":
      expect(r.isError, seen).toBeFalsy();
      expect(r.structuredContent?.status, seen).toBe("pending");
      expect(r.structuredContent?.resume, seen).toBeTruthy();
      break;
    case "error":
      expect(r.isError, seen).toBe(true);
      expect(outcome.codes, seen).toContain(errorCodeOf(r));
      if (outcome.maybeAccepted) expect(textOf(r), seen).toMatch(/may have been accepted/);
      else expect(textOf(r), seen).not.toMatch(/may have been accepted/);
      break;
  }
}

/**
 * Which test file runs which cells: about the same waiting in each. The latency column waits out
 * the deadline in every row (half of its rows in each of two files); the other columns mostly
 * wait for the sandbox's task latency and the retry backoff.
 */
const FILES: Record<string, { columns: string[]; rows?: "even" | "odd"; waitMs?: number }> = {
  "faults-retries": {
    columns: ["a burst of 429s", "a 503 on a read", "a 502 on the submission", "5xx on every request"],
  },
  "faults-work": {
    columns: ["a connection reset", "a malformed JSON body", "a task ending in error", "a crawl that fails"],
  },
  "faults-deadline-a": { columns: ["latency past the deadline"], rows: "even", waitMs: DEADLINE_WAIT_MS },
  "faults-deadline-b": { columns: ["latency past the deadline"], rows: "odd", waitMs: DEADLINE_WAIT_MS },
};

function cellsOf(file: string) {
  const { columns = [], rows } = FILES[file] ?? {};
  const seeds = ROW_SEEDS.filter((_, i) => rows === undefined || i % 2 === (rows === "even" ? 0 : 1));
  return COLUMNS.filter((c) => columns.includes(c.name)).flatMap((column) =>
    seeds.map((seed) => ({ label: seed.label, column })),
  );
}

/**
 * The tests of `file` (its FILES entry): its cells, after the coverage checks (every tool has a
 * row; every cell of the matrix runs in exactly one of the files, and they exist).
 */
export function faultMatrix(file: string): void {
  const m = { rows: [], waitMs: FILES[file]?.waitMs ?? WAIT_MS } as unknown as Matrix;
  const cells = cellsOf(file);
  hooks(m, new Set(cells.map((c) => c.label)));
  describe("fault matrix: every tool under every sandbox fault", () => {
    it("has a row for every tool but those that delete, and runs every cell in one file", () => {
      const deleting = ALL_TOOLS.filter((t) => toolAnnotations(t).destructiveHint).map((t) => t.name);
      expect(new Set(ROW_SEEDS.map((r) => r.tool))).toEqual(
        new Set(ALL_TOOLS.map((t) => t.name).filter((n) => !deleting.includes(n))),
      );
      const everyCell = COLUMNS.flatMap((c) => ROW_SEEDS.map((seed) => `${seed.label} × ${c.name}`));
      const run = Object.keys(FILES).flatMap((f) => cellsOf(f).map((c) => `${c.label} × ${c.column.name}`));
      expect(run.sort()).toEqual(everyCell.sort());
      for (const name of Object.keys(FILES)) {
        expect(existsSync(new URL(`./${name}.test.ts`, import.meta.url)), name).toBe(true);
      }
    });

    it.each(cells.map((c) => [c.label, c.column.name, c] as const))(
      "%s with %s ends as its row and the fault promise, within its deadline, and the server keeps serving",
      async (label, _fault, { column }) => {
        const { h } = m;
        const row = m.rows.find((r) => r.label === label)!;
        const outcome = row.cached ? success : column.expect(row);
        for (const fault of column.faults(row)) h.sandbox.faults.add(fault);
        // Bounded: the wait limit plus the client's bounded retries, never the injected latency.
        // A call still running past that times out here (a hang), which fails the cell; how soon
        // it ends is measured by npm run bench, not asserted.
        const first = await h.call(row.tool, row.args(h));
        // A handle is followed as an agent would: work a tool answers pending for (at its deadline,
        // or at once, as serp_search_async does) ends done, or shows its failure, on the resume.
        const r =
          outcome.kind === "success" || outcome.kind === "work_failure"
            ? await resumeWhilePending(h, first)
            : first;
        const workCreated = !h.sandbox.faults
          .list()
          .some((f) => f.kind === "task_error" || f.kind === "crawl_fail");
        h.sandbox.faults.clear();
        check(row, outcome, r, workCreated);
        const normal = await h.call(row.tool, row.args(h));
        expect(normal.isError, JSON.stringify(normal).slice(0, 400)).toBeFalsy();
      },
      60_000,
    );
  });
}
