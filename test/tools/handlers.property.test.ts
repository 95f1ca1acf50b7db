/**
 * Property (issue 21): the tool handlers themselves under damaged upstream answers. Every tool
 * with an API route runs its registry examples through the real server (in process, over the
 * SDK's InMemoryTransport) against the real sandbox behind a fake upstream that damages the
 * sandbox's answers as fast-check draws them (`test/helpers/shape-mutation.ts`: members left
 * out, of the wrong type, null, extra, unknown strings), or answers one request, and its retries,
 * with one of the service's error bodies (`{status: "failed", msg}`, `{success: "false", task_id,
 * message}`) and 400/402/429/500; on generation 2, and on generation 1 where the tool has routes.
 * Whatever comes back: no protocol error, a result valid against the tool's output schema unless
 * it is an error, an error that says what to do (and carries the service's message), no secret,
 * and the next call is served. PROPERTY_SCALE=N draws N times as many cases.
 */
import type { CallToolResult, Tool } from "@modelcontextprotocol/sdk/types.js";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { WebDataClient } from "../../src/api/client.js";
import { loadConfig } from "../../src/config.js";
import { ALL_TOOLS } from "../../src/tools/registry.js";
import { toolRoutes } from "../../src/tools/routes-by-tool.js";
import { ManualClock } from "../helpers/clock.js";
import { type FakeServer, forward, json, startFakeServer } from "../helpers/fake-upstream.js";
import { type InProcessServer, startInProcessServer } from "../helpers/in-process.js";
import { sharedOutputValidators } from "../helpers/output-validators.js";
import { useSandbox } from "../helpers/sandbox.js";
import { type Damage, damaged, fullDamageArb, stringPaths } from "../helpers/shape-mutation.js";

const KEY = "wdk_HANDLERPROPERTYQZXJV";
/** The legacy endpoint's Basic credential: its password is a secret too. */
const LEGACY = { user: "legacy", password: "LegacyPwQZXJV7" };
const NOTE = "upstream-note-7f3";
const RUNS = 3 * Number(process.env.PROPERTY_SCALE ?? 1);
const STATUS_CODE: Record<number, string> = {
  400: "bad_request",
  402: "payment_required",
  429: "rate_limited",
  500: "upstream_error",
};

type Plan =
  | { kind: "damage"; at: number; every: boolean; damage: Damage }
  | { kind: "error"; at: number; status: number; form: "failed" | "success_false"; echoKey: boolean };

const planArb: fc.Arbitrary<Plan> = fc.oneof(
  fc.record({
    kind: fc.constant("damage" as const),
    at: fc.nat(5),
    every: fc.boolean(),
    damage: fullDamageArb.chain((d) =>
      fc.constantFrom(d, { ...d, word: KEY }, { ...d, word: LEGACY.password }),
    ),
  }),
  fc.record({
    kind: fc.constant("error" as const),
    at: fc.nat(5),
    status: fc.constantFrom(400, 402, 429, 500),
    form: fc.constantFrom("failed" as const, "success_false" as const),
    echoKey: fc.boolean(),
  }),
);

/** The plan in force for the current call, and what it has seen so far. */
const now: { plan?: Plan; seen: number; erroring?: string } = { seen: 0 };

function errorBody(plan: Extract<Plan, { kind: "error" }>) {
  const said = `${NOTE}${plan.echoKey ? ` for key ${KEY} (${LEGACY.password})` : ""}`;
  return plan.form === "failed"
    ? { status: "failed", error: "REQUEST_FAILED", msg: said }
    : { success: "false", task_id: "t-property", message: said };
}

const sandbox = useSandbox({
  key: KEY,
  legacyAuth: `${LEGACY.user}:${LEGACY.password}`,
  rateLimit: 1_000_000,
  taskLatencyMs: 0,
  crawlPageMs: 0,
});
let upstream: FakeServer;
const servers = new Map<1 | 2, { server: InProcessServer; tools: Tool[] }>();

beforeAll(async () => {
  upstream = await startFakeServer(async (req, res) => {
    const plan = now.plan;
    const i = now.seen++;
    const route = `${req.method} ${req.url.split("?")[0]}`;
    if (plan?.kind === "error" && (i === plan.at || now.erroring === route)) {
      now.erroring = route;
      return json(res, plan.status, errorBody(plan), plan.status === 429 ? { "retry-after": "1" } : {});
    }
    const damage = plan?.kind === "damage" && (plan.every || i === plan.at) ? plan.damage : undefined;
    await forward(
      sandbox.url,
      req,
      res,
      damage && ((body) => damaged({ body, needed: [], enums: stringPaths(body) }, damage)),
    );
  });
  for (const generation of [1, 2] as const) {
    const config = loadConfig({
      WEBDATA_API_KEY: KEY,
      WEBDATA_BASE_URL: upstream.url,
      WEBDATA_TOOLSETS: "all",
      WEBDATA_WAIT_MS: "20000",
      WEBDATA_LEGACY_BASE_URL: `${upstream.url}/legacy`,
      WEBDATA_LEGACY_AUTH: `${LEGACY.user}:${LEGACY.password}`,
    });
    const client = new WebDataClient({
      baseUrl: upstream.url,
      apiKey: KEY,
      legacyBaseUrl: `${upstream.url}/legacy`,
      legacyAuth: `${LEGACY.user}:${LEGACY.password}`,
      maxRps: 1_000_000,
      generation,
      clock: new ManualClock({ auto: true }),
      log: () => {},
    });
    const server = await startInProcessServer({ config, client, extensions: [] });
    servers.set(generation, { server, tools: (await server.client.listTools()).tools });
  }
});

afterAll(async () => {
  for (const { server } of servers.values()) await server.close();
  await upstream?.close();
});

/** Each tool's output schema compiled once (the tests' shared validator, as their SDK clients use). */
const checkerOf = (tool: Tool) => sharedOutputValidators.getValidator(tool.outputSchema as never);
/** The tools with an upstream answer on this generation (the legacy endpoint has one generation). */
const withRoutes = (generation: 1 | 2) =>
  ALL_TOOLS.filter(
    (t) =>
      t.examples?.length &&
      (toolRoutes(t.name, generation).length > 0 || (t.toolset === "legacy" && generation === 2)),
  ).map((t) => t.name);

/** What must hold of any result, damaged answers or not. */
function checkResult(tool: Tool, result: CallToolResult, plan: Plan) {
  expect(JSON.stringify(result)).not.toContain(KEY);
  expect(JSON.stringify(result)).not.toContain(LEGACY.password);
  const text = result.content.map((c) => (c.type === "text" ? c.text : "")).join("\n");
  if (!result.isError) {
    const valid = checkerOf(tool)(result.structuredContent);
    expect(valid.errorMessage, text).toBeUndefined();
    return;
  }
  const [, code, advice] = /^Error \[([a-z_]+)\]: (.*)/s.exec(text) ?? [];
  expect(code, text).toBeDefined();
  expect(code, text).not.toBe("internal_error");
  expect(advice.length, text).toBeGreaterThan(15);
  if (plan.kind === "error" && code === STATUS_CODE[plan.status]) expect(text).toContain(NOTE);
}

for (const generation of [2, 1] as const) {
  describe(`generation ${generation}: every tool's handler under damaged answers and error bodies`, () => {
    it.each(withRoutes(generation))("%s", async (name) => {
      const { server, tools } = servers.get(generation)!;
      const { client } = server;
      const tool = tools.find((t) => t.name === name)!;
      const examples = ALL_TOOLS.find((t) => t.name === name)!.examples!;
      await fc.assert(
        fc.asyncProperty(planArb, fc.nat(examples.length - 1), async (plan, e) => {
          Object.assign(now, { plan, seen: 0, erroring: undefined });
          let result: CallToolResult;
          try {
            result = (await client.callTool({ name, arguments: { ...examples[e] } })) as CallToolResult;
          } finally {
            now.plan = undefined;
          }
          checkResult(tool, result, plan);
          expect(server.stderr()).not.toContain(KEY);
          expect(server.stderr()).not.toContain(LEGACY.password);
          expect(server.errors).toEqual([]);
        }),
        { numRuns: RUNS },
      );
      // Whatever the damage did to the client's pool, retries or rate limiter, the next call is served.
      const next = await client.callTool({
        name: "check_domain_health",
        arguments: { domains: ["example.com"] },
      });
      expect(next.isError, JSON.stringify(next.content)).toBeFalsy();
    });
  });
}
