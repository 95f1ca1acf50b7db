/**
 * The fault matrix: every tool × each sandbox fault, through one built stdio server. Each cell
 * names the outcome the retry policy and the waiting rules promise (src/api/retry.ts,
 * DESIGN.md), checks the call ends within its deadline (generous slack: no speed is measured
 * here), and that the server keeps serving afterwards.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import type { Fault } from "../../src/sandbox/index.js";
import type { ToolCall } from "../helpers/mcp.js";
import { crashLines, errorCodeOf, type Hardened, harden, secretLeaks, textOf } from "./harness.js";

const WAIT_MS = 1500;
/** Far past the deadline, so a call that does not stop at its deadline is caught. */
const SLOW_MS = 15_000;
/** Deadline slack for a loaded CI machine; still well under SLOW_MS. */
const SLACK_MS = 6_000;

type Shape = "short" | "long";
interface Row {
  tool: string;
  label: string;
  shape: Shape;
  /** "METHOD /path" prefix of the request that starts billed work (absent: the tool only reads). */
  submission?: string;
  /** Requests the tool polls with, for a latency fault that hits the wait and not the submission. */
  polls?: string;
  /** Creates tasks (a task_error fault applies) — and how one failed task shows. */
  tasks?: "fails" | "partial";
  /** Answers from memory (the agent catalog fetched at start): no request, so no fault applies. */
  cached?: boolean;
  args: (h: Hardened) => Record<string, unknown>;
}

let taskId = "";

const ROWS: Row[] = [
  {
    tool: "serp_search",
    label: "serp_search",
    shape: "short",
    submission: "POST /v2/serp",
    args: () => ({ search_engine: "engine1_search", query: "hiking boots" }),
  },
  {
    tool: "extract_page",
    label: "extract_page (sync)",
    shape: "long",
    submission: "POST /v1/extract",
    tasks: "fails",
    args: (h) => ({ url: `${h.sandbox.siteUrl}/about` }),
  },
  {
    tool: "extract_page",
    label: "extract_page (rendered, polled)",
    shape: "long",
    submission: "POST /v1/extract/async",
    polls: "GET /v1/tasks/",
    tasks: "fails",
    args: (h) => ({ url: `${h.sandbox.siteUrl}/about`, render: true }),
  },
  {
    tool: "extract_batch",
    label: "extract_batch",
    shape: "long",
    submission: "POST /v1/extract/batch",
    polls: "GET /v1/batches/",
    tasks: "partial",
    args: (h) => ({ inputs: [{ url: `${h.sandbox.siteUrl}/about` }, { url: `${h.sandbox.siteUrl}/shop` }] }),
  },
  {
    tool: "crawl_site",
    label: "crawl_site",
    shape: "long",
    submission: "POST /v1/crawl",
    polls: "GET /v1/crawl/",
    tasks: "partial",
    args: (h) => ({ url: `${h.sandbox.siteUrl}/`, limit: 3 }),
  },
  {
    tool: "map_site",
    label: "map_site",
    shape: "long",
    submission: "POST /v1/map/async",
    polls: "GET /v1/tasks/",
    tasks: "fails",
    args: (h) => ({ url: `${h.sandbox.siteUrl}/`, limit: 10 }),
  },
  {
    tool: "run_agent",
    label: "run_agent",
    shape: "long",
    submission: "POST /v1/agents/run",
    tasks: "fails",
    args: () => ({ agent: "news_article", params: { url: "https://news.example.com/2026/05/story" } }),
  },
  {
    tool: "run_template",
    label: "run_template",
    shape: "long",
    submission: "POST /v2/extract/templates/run",
    tasks: "fails",
    args: () => ({ template: "news_article", params: { url: "https://news.example.com/2026/05/story" } }),
  },
  { tool: "get_task", label: "get_task", shape: "short", args: () => ({ task_id: taskId }) },
  {
    tool: "list_agents",
    label: "list_agents (catalog in memory)",
    shape: "short",
    cached: true,
    args: () => ({ name: "news_article" }),
  },
  {
    tool: "check_domain_health",
    label: "check_domain_health",
    shape: "short",
    args: () => ({ domains: ["example.com", "shop.example.com"] }),
  },
  { tool: "job_runs", label: "job_runs", shape: "short", args: () => ({ job_id: "job_daily_prices" }) },
  {
    tool: "get_social_event",
    label: "get_social_event",
    shape: "short",
    args: () => ({ platform: "meetup", event_id: "trail-day-42" }),
  },
];

/** What a cell must end in. */
type Outcome =
  | { kind: "success" }
  | { kind: "pending" }
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
    expect: (row) => (row.tasks === "fails" ? { kind: "error", codes: ["task_failed"] } : success),
  },
  {
    name: "a crawl that fails",
    faults: () => [{ kind: "crawl_fail", count: 1 }],
    expect: (row) => (row.tool === "crawl_site" ? { kind: "error", codes: ["task_failed"] } : success),
  },
  {
    name: "latency past the deadline",
    faults: (row) => [{ kind: "latency", ms: SLOW_MS, count: 1, match: row.polls ?? row.submission }],
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

let h: Hardened;

beforeAll(async () => {
  h = await harden({ waitMs: WAIT_MS, sandbox: { taskLatencyMs: 30, crawlPageMs: 5 } });
  const started = await h.call("extract_page", { url: `${h.sandbox.siteUrl}/docs`, render: true });
  taskId = String(started.structuredContent?.task_id ?? "");
  expect(taskId).not.toBe("");
  // The agent catalog's first fetch is over before faults go in.
  await h.call("list_agents", { name: "news_article" });
}, 60_000);

afterEach(() => h?.sandbox.faults.clear());

afterAll(async () => {
  if (!h) return;
  try {
    expect(crashLines(h.server.stderr())).toEqual([]);
    expect(secretLeaks(h.captured(), h.key)).toEqual([]);
    expect(secretLeaks(h.captured(), h.legacyAuth)).toEqual([]);
  } finally {
    await h.close();
  }
}, 60_000);

function check(row: Row, outcome: Outcome, r: ToolCall) {
  const seen = `${JSON.stringify(r).slice(0, 600)}`;
  switch (outcome.kind) {
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

const CELLS = COLUMNS.flatMap((column) =>
  ROWS.map((row) => ({ row, column, outcome: row.cached ? success : column.expect(row) })),
);

describe("fault matrix: every tool under every sandbox fault", () => {
  it.each(CELLS.map((c) => [c.row.label, c.column.name, describeOutcome(c.outcome), c] as const))(
    "%s with %s ends in %s, within its deadline, and the server keeps serving",
    async (_label, _fault, _outcome, { row, column, outcome }) => {
      for (const fault of column.faults(row)) h.sandbox.faults.add(fault);
      const started = Date.now();
      // Bounded: the wait limit plus the client's bounded retries, never the injected latency.
      // A call still running past that times out here (a hang), which fails the cell.
      const r = await h.call(row.tool, row.args(h), WAIT_MS + SLACK_MS);
      const elapsed = Date.now() - started;
      h.sandbox.faults.clear();
      check(row, outcome, r);
      expect(elapsed).toBeLessThan(WAIT_MS + SLACK_MS);
      const normal = await h.call(row.tool, row.args(h));
      expect(normal.isError, JSON.stringify(normal).slice(0, 400)).toBeFalsy();
    },
    60_000,
  );
});
