/**
 * Property (issue 21), beside v2-response-shapes: the research run's event stream (§14: untyped
 * `event:`/`data:` messages split on blank lines) and the service's error bodies (§2.5).
 * - The stream as the client reads it (`researchEvents`), cut into chunks anywhere (inside a line,
 *   a CRLF or a UTF-8 character), with keep-alive comments, unknown fields and event names, data
 *   that is not JSON, multi-line data and messages without data: exactly the messages it carries.
 * - The `research` tool on the sandbox with its events replaced by damaged ones (steps going back,
 *   out of range or of the wrong type, unknown events, an early "completed"): the answer is the
 *   run's result and the progress it reports stays finite and strictly increasing.
 * - Every route of both generations answering `{status: "failed", msg}` or `{success: "false",
 *   task_id, message}`, damaged, with 400/402/429/500: the code the status means and the
 *   service's words in the message.
 */
import type { ServerResponse } from "node:http";
import { Readable } from "node:stream";
import fc from "fast-check";
import type { Dispatcher } from "undici";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { WebDataClient } from "../../src/api/client.js";
import { errorFromStatus } from "../../src/api/error-factory.js";
import { ROUTES, type RouteSide } from "../../src/api/routes.js";
import { type ServerEvent, streamEvents } from "../../src/api/sse.js";
import { loadConfig } from "../../src/config.js";
import { ManualClock } from "../helpers/clock.js";
import { type FakeServer, forward, startFakeServer } from "../helpers/fake-upstream.js";
import { type InProcessServer, startInProcessServer } from "../helpers/in-process.js";
import { useSandbox } from "../helpers/sandbox.js";
import { damageArb, damaged } from "../helpers/shape-mutation.js";

const KEY = "wdk_EVENTSPROPERTYQZXJVK";
const SCALE = Number(process.env.PROPERTY_SCALE ?? 1);

/** One block of the stream: its lines, and the message a reader must give for it (if any). */
interface Block {
  lines: string[];
  expected?: ServerEvent;
}

const text = fc.string({
  unit: fc.constantFrom("a", "é", "—", "🚀", " ", ":", "{", '"', "1"),
  maxLength: 12,
});
const eventName = fc.oneof(
  fc.constantFrom("run.started", "run.step", "run.completed", "run.failed", "message"),
  text.map((t) => `x.${t.replace(/[\r\n]/g, "")}`),
);
const payload = fc.record({ run_id: fc.constant("task_run_1"), step: fc.nat(9), message: text });
/** What a reader makes of a data text: its JSON value, else the text. */
function parsed(t: string): unknown {
  try {
    return JSON.parse(t);
  } catch {
    return t;
  }
}
/** `data:` with or without the one space a reader drops. */
const field = (name: string, value: string, spaced: boolean) => `${name}:${spaced ? " " : ""}${value}`;

const blockArb: fc.Arbitrary<Block> = fc.oneof(
  // A JSON payload, on one line or spread over several data lines, with fields a reader ignores.
  fc
    .record({
      event: eventName,
      data: payload,
      multiLine: fc.boolean(),
      spaced: fc.boolean(),
      id: fc.boolean(),
    })
    .map(({ event, data, multiLine, spaced, id }) => {
      const body = multiLine ? JSON.stringify(data, null, 1).split("\n") : [JSON.stringify(data)];
      const lines = [
        field("event", event, spaced),
        ...(id ? ["id: 7", "retry: 1500", "x-unknown: y"] : []),
        ...body.map((l) => field("data", l, spaced)),
      ];
      return { lines, expected: { event, data } };
    }),
  // Data that is not JSON comes as text; no event line means "message".
  text.map((t) => ({ lines: [field("data", t, true)], expected: { event: "message", data: parsed(t) } })),
  // A keep-alive comment, or an event with no data: nothing to give.
  fc.constantFrom<Block>({ lines: [": keep-alive"] }, { lines: ["event: run.step"] }, { lines: ["id: 9"] }),
);

const streamArb = fc.record({
  blocks: fc.array(blockArb, { maxLength: 8 }),
  crlf: fc.boolean(),
  cuts: fc.array(fc.nat(400), { maxLength: 12 }),
});

/** The stream's bytes cut at the given byte offsets. */
function chunks(blocks: Block[], crlf: boolean, cuts: number[]): Buffer[] {
  const eol = crlf ? "\r\n" : "\n";
  const bytes = Buffer.from(blocks.map((b) => `${b.lines.join(eol)}${eol}${eol}`).join(""), "utf8");
  const at = [...new Set(cuts.map((c) => c % (bytes.length + 1)))].sort((a, b) => a - b);
  return [...at, bytes.length].map((end, i) => bytes.subarray(i === 0 ? 0 : at[i - 1], end));
}

/**
 * A dispatcher that answers with these chunks, each delivered as it is: loopback TCP would join
 * them, and where the bytes are cut is what this property varies.
 */
const chunked = (parts: Buffer[]) =>
  ({ request: async () => ({ statusCode: 200, body: Readable.from(parts) }) }) as unknown as Dispatcher;

describe("the research event stream as the reader takes it in", () => {
  it("gives exactly the messages sent, however the bytes are cut", async () => {
    await fc.assert(
      fc.asyncProperty(streamArb, async ({ blocks, crlf, cuts }) => {
        const seen: ServerEvent[] = [];
        const url = new URL("http://127.0.0.1:9/v2/agents/wsa_1/runs/task_run_1/events");
        for await (const e of streamEvents(
          chunked(chunks(blocks, crlf, cuts)),
          url,
          "Bearer k",
          new AbortController().signal,
        ))
          seen.push(e);
        expect(seen).toEqual(blocks.flatMap((b) => (b.expected ? [b.expected] : [])));
      }),
      { numRuns: 100 * SCALE },
    );
  });
});

/** One damaged event for the research tool: `data` may be anything a service could send. */
const researchEventArb = fc.record({
  event: eventName,
  data: fc.oneof(
    fc.record({
      step: fc.oneof(fc.integer({ min: -5, max: 50 }), fc.constant("3"), fc.constant(null), fc.double()),
      total_steps: fc.oneof(fc.integer({ min: -1, max: 10 }), fc.constant("x"), fc.constant(0)),
      message: fc.oneof(text, fc.constant(null), fc.constant(42)),
    }),
    text,
  ),
});

describe("the research tool under damaged events", () => {
  const sandbox = useSandbox({ key: KEY, rateLimit: 1_000_000, taskLatencyMs: 0 });
  let upstream: FakeServer;
  let server: InProcessServer;
  let events: { event: string; data: unknown }[] = [];
  const sendEvents = (res: ServerResponse) => {
    res.writeHead(200, { "content-type": "text/event-stream" });
    for (const e of events)
      res.write(
        `event: ${e.event}\ndata: ${typeof e.data === "string" ? e.data : JSON.stringify(e.data)}\n\n`,
      );
    res.end();
  };
  beforeAll(async () => {
    upstream = await startFakeServer((req, res) =>
      req.url.includes("/events") ? sendEvents(res) : forward(sandbox.url, req, res),
    );
    const config = loadConfig({
      WEBDATA_API_KEY: KEY,
      WEBDATA_BASE_URL: upstream.url,
      WEBDATA_TOOLSETS: "all",
    });
    const clock = new ManualClock({ auto: true });
    const client = new WebDataClient({
      baseUrl: upstream.url,
      apiKey: KEY,
      generation: 2,
      clock,
      log: () => {},
    });
    server = await startInProcessServer({ config, client, extensions: [] });
  });
  afterAll(async () => {
    await server?.close();
    await upstream?.close();
  });

  it("answers with the run's result; progress stays finite and strictly increasing", async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(researchEventArb, { maxLength: 8 }), async (drawn) => {
        events = drawn;
        const progress: { progress: number; total?: number }[] = [];
        const result = await server.client.callTool(
          { name: "research", arguments: { input: "What tents suit winter camping?" } },
          undefined,
          { onprogress: (p) => void progress.push(p) },
        );
        expect(result.isError, JSON.stringify(result.content)).toBeFalsy();
        expect((result.structuredContent as { answer?: unknown }).answer).toBeTruthy();
        for (const [i, p] of progress.entries()) {
          expect(Number.isFinite(p.progress)).toBe(true);
          if (p.total !== undefined) expect(Number.isFinite(p.total) && p.total >= p.progress).toBe(true);
          if (i > 0) expect(p.progress).toBeGreaterThan(progress[i - 1].progress);
        }
        expect(server.errors).toEqual([]);
      }),
      { numRuns: 8 * SCALE },
    );
  });
});

const STATUS_CODE: Record<number, string> = {
  400: "bad_request",
  402: "payment_required",
  429: "rate_limited",
  500: "upstream_error",
};
/** Every route side of both generations, as the label an error names. */
const LABELS = Object.values(ROUTES).flatMap((route) =>
  ([2, 1] as const).flatMap((g) => {
    const side = (route as { 1?: RouteSide; 2?: RouteSide })[g];
    return side ? [`${route.method} /${side.path}`] : [];
  }),
);

describe("error bodies of every route", () => {
  it("each form, damaged, with 400/402/429/500: the status's code and the service's words", () => {
    const said = fc.string({ minLength: 1, maxLength: 40 }).filter((s) => s.trim() !== "");
    const bodyArb = fc.oneof(
      said.map((msg) => ({ msg, body: { status: "failed", error: "INSUFFICIENT_BUDGET", msg } })),
      said.map((msg) => ({ msg, body: { success: "false", task_id: "t-1", message: msg } })),
    );
    fc.assert(
      fc.property(
        fc.constantFrom(...LABELS),
        fc.constantFrom(400, 402, 429, 500),
        bodyArb,
        damageArb,
        (label, status, { msg, body }, damage) => {
          const sent = damaged({ body, needed: [["msg"], ["message"], ["task_id"]], enums: [] }, damage);
          const error = errorFromStatus({
            status,
            bodyText: JSON.stringify(sent),
            label,
            attempts: 1,
            maybeAccepted: false,
          });
          expect(error.code).toBe(STATUS_CODE[status]);
          expect(error.message).toContain(label);
          expect(error.message).toContain(msg);
          if ("task_id" in body) expect(error.message).toContain("t-1");
        },
      ),
      { numRuns: 400 * SCALE },
    );
  });
});
