/**
 * Property-based fuzzing of every tool's arguments through a real MCP client and a built stdio
 * server (one per test file, reused across all its runs). Arbitraries come from each tool's exact
 * JSON input schema (zod's: the lengths and formats the listed schema says in words). Invalid inputs must end in a clear `isError` and send
 * nothing to the API; valid inputs must end in a result or an error with a code. Every call has a
 * timeout (a hang fails the run), and afterwards the process must still answer `ping` with no
 * unhandled rejection or stack trace on stderr and no part of the key anywhere.
 *
 * Counts scale with FUZZ_SCALE (default 1): per tool 300 invalid and 64 valid inputs. An invalid
 * input breaks one rule, drawn uniformly from the tool's 7–31 ways to break one (serp_search has
 * the most), so each way is tried about 10 times or more per run and one is missed with a
 * probability under (30/31)^300 ≈ 5e-5; FUZZ_SCALE=5 gives the 1,500 of a deeper run. Fuzzing
 * was a quarter of the suite's CPU at 500 and 120.
 * The files: fuzz-invalid.test.ts, fuzz-valid-a.test.ts, fuzz-valid-b.test.ts.
 */
import { ErrorCode, type McpError, type Tool } from "@modelcontextprotocol/sdk/types.js";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ApiError } from "../../src/api/errors.js";
import { inputJsonSchema } from "../../src/server/tool-schemas.js";
import { errorResult } from "../../src/tools/errors.js";
import { ALL_TOOLS } from "../../src/tools/registry.js";
import type { ToolCall } from "../helpers/mcp.js";
import { webUrl } from "../helpers/unicode-arbitraries.js";
import { invalidInput, type JsonSchema, validInput } from "./arbitraries.js";
import { crashLines, errorCodeOf, type Hardened, harden, secretLeaks, textOf } from "./harness.js";

export const FUZZED_TOOLS = ALL_TOOLS.map((t) => t.name);

const SCALE = Number(process.env.FUZZ_SCALE ?? 1);
const INVALID_BATCH = 20;
const INVALID_RUNS = Math.max(1, Math.round(15 * SCALE)); // × 20 inputs
const VALID_BATCH = 8;
const VALID_RUNS = Math.max(1, Math.round(8 * SCALE)); // × 8 inputs
/**
 * The server's wait limit. A long call still running at it answers with a resumable handle, which
 * is as much a clean answer as a finished one; the sandbox finishes most of them well inside it.
 */
const WAIT_MS = 500;

/**
 * What a generated valid input must never produce: our own argument refusal, the SDK's input or
 * output validation errors, or a bug of ours (`errorResult` of a plain Error: `Error [internal_error]`).
 */
const NOT_A_CLEAN_ANSWER =
  /Invalid arguments for \w+; fix them|Input validation error|Output validation error|Error \[internal_error\]/;

const CODES = new Set([
  "invalid_argument",
  "bad_request",
  "unauthorized",
  "payment_required",
  "not_found",
  "validation_failed",
  "rate_limited",
  "upstream_error",
  "network_error",
  "timeout",
  "invalid_response",
  "aborted",
  "task_failed",
]);

/** Module state of the one file that imports this (each test file has its own). */
let h: Hardened;
let schemas: Map<string, JsonSchema>;
let hints: Record<string, fc.Arbitrary<unknown>>;
let calls = 0;

function hooks(): void {
  beforeAll(async () => {
    h = await harden({ waitMs: WAIT_MS });
    const listed: Tool[] = (await h.server.client.listTools()).tools;
    const exact = new Map(ALL_TOOLS.map((t) => [t.name, inputJsonSchema(t) as JsonSchema]));
    schemas = new Map(listed.map((t) => [t.name, exact.get(t.name) ?? (t.inputSchema as JsonSchema)]));

    // Realistic values for some members, mixed with the schema-derived ones.
    const agents = await h.call("list_agents", { limit: 200 });
    const agentNames = ((agents.structuredContent?.agents ?? []) as Array<{ name: string }>).map(
      (a) => a.name,
    );
    const extract = await h.call("extract_page", { url: `${h.sandbox.siteUrl}/about`, render: true });
    const taskId = String(extract.structuredContent?.task_id ?? "unknown-task");
    const site = ["/", "/about", "/shop", "/blog", "/docs", "/sitemap"].map(
      (p) => `${h.sandbox.siteUrl}${p}`,
    );
    const mix = (a: fc.Arbitrary<unknown>, b: fc.Arbitrary<unknown>) => fc.oneof(a, b);
    hints = {
      url: mix(fc.constantFrom(...site), webUrl({ withQueryParameters: true })),
      agent: mix(
        fc.constantFrom(...(agentNames.length ? agentNames : ["none"])),
        fc.string({ minLength: 1 }),
      ),
      template: fc.constantFrom("ecommerce_product", "serp_listing", "news_article", "job_posting", "nope"),
      task_id: mix(fc.constant(taskId), fc.uuid()),
      job_id: fc.constantFrom("job_daily_prices", "job_weekly_reviews", "job_hourly_news", "job_missing"),
      domains: fc.array(fc.domain(), { minLength: 1, maxLength: 5 }),
      query: mix(
        fc.constantFrom("hiking boots", "trail running"),
        fc.string({ unit: "grapheme", minLength: 1 }),
      ),
    };
  }, 120_000);

  afterAll(async () => {
    if (!h) return;
    try {
      // Still serving after everything: ping, a normal call, and nothing alarming on stderr.
      expect(h.alive()).toBe(true);
      await h.server.client.ping();
      const ok = await h.call("check_domain_health", { domains: ["example.com"] });
      expect(ok.isError).toBeFalsy();
      expect(crashLines(h.server.stderr())).toEqual([]);
      const all = h.captured();
      expect(secretLeaks(all, h.key)).toEqual([]);
      expect(secretLeaks(all, h.legacyAuth)).toEqual([]);
      process.stderr.write(`fuzz: ${calls} tool calls\n`);
    } finally {
      await h.close();
    }
  }, 120_000);
}

/** What an invalid input's refusal says. */
const REFUSAL = /invalid|required|must|expected|too (big|small|long|short)/i;

/**
 * An input and its answer in a failure's message. Built only for a failing one: the inputs reach
 * 100,000 characters, and stringifying every one of 6,000 calls' took a tenth of the file's CPU.
 */
const show = (v: unknown) => {
  const s = JSON.stringify(v);
  return s.length > 300 ? `${s.slice(0, 300)}… (${s.length} chars)` : s;
};

async function callCounted(name: string, args: unknown): Promise<ToolCall> {
  calls += 1;
  return h.call(name, args);
}

function invalidChecks(tools: readonly string[]): void {
  it("the guard on valid inputs matches a bug's error text and passes an upstream error's", () => {
    expect(textOf(errorResult(new Error("boom")))).toMatch(NOT_A_CLEAN_ANSWER);
    const upstream = new ApiError({ code: "upstream_error", status: 502, message: "bad gateway" });
    expect(textOf(errorResult(upstream))).not.toMatch(NOT_A_CLEAN_ANSWER);
  });

  it("covers every tool the server lists", () => {
    expect([...schemas.keys()].sort()).toEqual([...FUZZED_TOOLS].sort());
  });

  it.each(tools)(
    "%s rejects every generated invalid input with a clear error and sends nothing upstream",
    async (tool) => {
      const schema = schemas.get(tool)!;
      await fc.assert(
        fc.asyncProperty(
          fc.array(invalidInput(schema), { minLength: INVALID_BATCH, maxLength: INVALID_BATCH }),
          async (batch) => {
            const before = h.sandbox.requests.length;
            const results = await Promise.all(batch.map((c) => callCounted(tool, c.args)));
            results.forEach((r, i) => {
              const text = textOf(r);
              const clear = r.isError === true && REFUSAL.test(text) && errorCodeOf(r) === "invalid_argument";
              const why = clear ? "" : `${batch[i].why}: ${show(batch[i].args)} → ${show(r)}`;
              expect(r.isError, why).toBe(true);
              expect(text, why).toMatch(REFUSAL);
              expect(errorCodeOf(r), why).toBe("invalid_argument");
            });
            const sent = h.sandbox.requests.slice(before).map((q) => `${q.method} ${q.path}`);
            expect(sent, `requests for ${show(batch.map((c) => c.why))}`).toEqual([]);
          },
        ),
        { numRuns: INVALID_RUNS, endOnFailure: true },
      );
      await h.server.client.ping();
    },
    120_000,
  );

  it("rejects arguments that are not an object, and unknown tools, with -32602 and without dying", async () => {
    for (const args of [[1, 2], "text", 42, null, true]) {
      const outcome = await h.server.client
        .callTool({ name: "serp_search", arguments: args as never }, undefined, { timeout: 10_000 })
        .then(
          (r) => ({ code: undefined, text: textOf(r as ToolCall) }),
          (e: McpError) => ({ code: e.code, text: e.message }),
        );
      expect(outcome.code, show(args)).toBe(ErrorCode.InvalidParams);
      expect(outcome.text).toMatch(/"arguments" must be an object of the tool's arguments by name \(got /);
      expect(outcome.text).not.toMatch(/"code":|invalid_type/); // readable, not a zod dump
    }
    const nameless = await h.server.client.callTool({ name: 42 as never, arguments: {} }).then(
      () => undefined,
      (e: McpError) => e,
    );
    expect(nameless?.code).toBe(ErrorCode.InvalidParams);
    expect(nameless?.message).toMatch(/needs "name", the tool's name as a string \(got a number\)/);
    const unknown = await h.server.client.callTool({ name: "no_such_tool", arguments: {} }).then(
      () => undefined,
      (e: McpError) => e,
    );
    expect(unknown?.code).toBe(ErrorCode.InvalidParams);
    expect(unknown?.message).toMatch(/Unknown tool "no_such_tool". Call tools\/list/);
    await h.server.client.ping();
  });
}

function validChecks(tools: readonly string[]): void {
  it.each(tools)(
    "%s answers every generated valid input with a result or an error that has a code",
    async (tool) => {
      const schema = schemas.get(tool)!;
      await fc.assert(
        fc.asyncProperty(
          fc.array(validInput(schema, { hints }), { minLength: VALID_BATCH, maxLength: VALID_BATCH }),
          async (batch) => {
            const results = await Promise.all(batch.map((args) => callCounted(tool, args)));
            results.forEach((r, i) => {
              const text = textOf(r);
              const clean =
                text.length > 0 &&
                !NOT_A_CLEAN_ANSWER.test(text) &&
                (r.isError ? CODES.has(errorCodeOf(r) ?? "") : typeof r.structuredContent === "object");
              const why = clean ? "" : `${show(batch[i])} → ${show(r)}`;
              expect(text.length, why).toBeGreaterThan(0);
              expect(text, why).not.toMatch(NOT_A_CLEAN_ANSWER);
              if (r.isError) expect(CODES.has(errorCodeOf(r) ?? ""), why).toBe(true);
              else expect(typeof r.structuredContent, why).toBe("object");
            });
          },
        ),
        { numRuns: VALID_RUNS, endOnFailure: true },
      );
      await h.server.client.ping();
    },
    120_000,
  );
}

/**
 * One fuzzing file's tests: its own sandbox and built server (see harness.ts), the checks of
 * `part` for `tools`; the "invalid" part also checks the guard, the tool coverage and non-object
 * arguments. The parts are split over files so they run in parallel workers.
 */
export function fuzzSuite(part: "invalid" | "valid", tools: readonly string[]): void {
  hooks();
  describe(`fuzzing tools' arguments (${part})`, () => {
    if (part === "invalid") invalidChecks(tools);
    else validChecks(tools);
  });
}
