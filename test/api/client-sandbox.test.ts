/**
 * WebDataClient against the real sandbox with faults switched on. The client's backoffs and
 * rate-limit waits run on a manual clock that jumps when it waits (the sandbox keeps real time).
 */
import { afterEach, describe, expect, it } from "vitest";
import { WebDataClient } from "../../src/api/client.js";
import { ApiError } from "../../src/api/errors.js";
import { startSandbox } from "../../src/sandbox/index.js";
import { ManualClock } from "../helpers/clock.js";
import { useSandbox } from "../helpers/sandbox.js";

const sandbox = useSandbox({ taskLatencyMs: 200 });
let client: WebDataClient;
let clock: ManualClock;
const KEY = "sandbox-key-f00dfeed";
afterEach(async () => {
  sandbox.faults.clear();
  await client?.close();
});

function newClient(apiKey = KEY) {
  clock = new ManualClock({ auto: true });
  client = new WebDataClient({ generation: 1, baseUrl: sandbox.url, apiKey, clock });
  return client;
}

/** Sandbox log entries from `from` on for requests whose path starts with `prefix`. */
const logSince = (from: number, prefix: string) =>
  sandbox.requests.slice(from).filter((r) => r.path.startsWith(prefix));

async function failure(promise: Promise<unknown>): Promise<ApiError> {
  const err = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(ApiError);
  return err as ApiError;
}

async function newTaskId(c: WebDataClient): Promise<string> {
  return (await c.extractAsync({ url: `${sandbox.siteUrl}/about` })).task_id;
}

describe("client against the sandbox", () => {
  it("absorbs a 429 burst, waiting what the body asks each time", async () => {
    const c = newClient();
    const id = await newTaskId(c);
    const from = sandbox.requests.length;
    sandbox.faults.add({ kind: "rate_limit", match: "GET /v1/tasks/", count: 2, retryAfter: 1 });
    const start = clock.now();
    await expect(c.getTask(id)).resolves.toMatchObject({ task: { id } });
    const log = logSince(from, "/v1/tasks/");
    expect(log.map((r) => r.status)).toEqual([429, 429, 200]);
    // Its clock moved on by the two 1 s waits the bodies asked for.
    expect(clock.now() - start).toBeGreaterThanOrEqual(2_000);
  });

  it("retries 5xx on a read, then surfaces a clear upstream error", async () => {
    const c = newClient();
    const id = await newTaskId(c);
    let from = sandbox.requests.length;
    sandbox.faults.add({ kind: "status", status: 503, match: "GET /v1/tasks/", count: 2 });
    await expect(c.getTask(id)).resolves.toBeDefined();
    expect(logSince(from, "/v1/tasks/").map((r) => r.status)).toEqual([503, 503, 200]);

    from = sandbox.requests.length;
    sandbox.faults.add({ kind: "status", status: 500, match: "GET /v1/tasks/" });
    const err = await failure(c.getTask(id));
    expect(err).toMatchObject({ code: "upstream_error", status: 500 });
    expect(err.message).toContain("after 4 attempts");
    expect(logSince(from, "/v1/tasks/")).toHaveLength(4);
  });

  it("retries connection resets on a read, then surfaces a network error", async () => {
    const c = newClient();
    const id = await newTaskId(c);
    let from = sandbox.requests.length;
    sandbox.faults.add({ kind: "reset", match: "GET /v1/tasks/", count: 1 });
    await expect(c.getTask(id)).resolves.toBeDefined();
    expect(logSince(from, "/v1/tasks/").map((r) => r.status)).toEqual([0, 200]);

    from = sandbox.requests.length;
    sandbox.faults.add({ kind: "reset", match: "GET /v1/tasks/" });
    const err = await failure(c.getTask(id));
    expect(err.code).toBe("network_error");
    expect(logSince(from, "/v1/tasks/")).toHaveLength(4);
  });

  it("reports a malformed JSON body clearly", async () => {
    const c = newClient();
    const id = await newTaskId(c);
    sandbox.faults.add({ kind: "malformed", match: "GET /v1/tasks/", count: 1 });
    const err = await failure(c.getTask(id));
    expect(err.code).toBe("invalid_response");
    expect(err.message).toMatch(/the API returned a body that is not JSON \(\{/);
  });

  it("does not re-send a submission whose connection was reset after it was accepted", async () => {
    const c = newClient();
    // No other test of this file's own sandbox submits this URL: one task made with it means one send.
    const url = `${sandbox.siteUrl}/blog?accepted=once`;
    const from = sandbox.requests.length;
    sandbox.faults.add({ kind: "reset", after: "accept", match: "POST /v1/extract/async", count: 1 });
    const err = await failure(c.extractAsync({ url }));
    expect(err).toMatchObject({ code: "network_error", maybeAccepted: true });
    expect(err.message).toContain("may have been accepted"); // which tool to check: the tool layer says
    expect(logSince(from, "/v1/extract/async")).toHaveLength(1);
    const { tasks } = await c.listTasks({ limit: 200 });
    expect(tasks.filter((t) => (t.input as { url?: string })?.url === url)).toHaveLength(1);
  });

  it("does not re-send a submission after a 5xx", async () => {
    const c = newClient();
    const from = sandbox.requests.length;
    sandbox.faults.add({ kind: "status", status: 502, match: "POST /v1/extract/async", count: 1 });
    const err = await failure(c.extractAsync({ url: `${sandbox.siteUrl}/` }));
    expect(err).toMatchObject({ code: "upstream_error", status: 502, maybeAccepted: true });
    expect(logSince(from, "/v1/extract/async")).toHaveLength(1);
  });

  it("names the status and the key problem on a refused key, without the key", async () => {
    const strict = await startSandbox({ key: "the-right-key-123456" });
    try {
      const wrongKey = "the-wrong-key-987654";
      const c = new WebDataClient({ generation: 1, baseUrl: strict.url, apiKey: wrongKey });
      const err = await failure(c.getTask("x"));
      await c.close();
      expect(err.code).toBe("unauthorized");
      expect(err.message).toMatch(/401.*the API key is missing or invalid/);
      for (let i = 0; i + 5 <= wrongKey.length; i++)
        expect(err.message).not.toContain(wrongKey.slice(i, i + 5));
      expect(strict.requests).toHaveLength(1);
    } finally {
      await strict.close();
    }
  });

  it("validates real responses of the main endpoints", async () => {
    const c = newClient();
    const sync = await c.extract({ url: `${sandbox.siteUrl}/`, formats: ["markdown"] });
    expect(sync.status).toBe("success");
    const batch = await c.extractBatch({
      inputs: [{ url: `${sandbox.siteUrl}/` }, { url: `${sandbox.siteUrl}/about` }],
    });
    expect(batch.batch_size).toBe(2);
    await expect(c.getBatch(batch.batch_id)).resolves.toMatchObject({ tasks: expect.any(Array) });
    await expect(c.getBatchProgress(batch.batch_id)).resolves.toMatchObject({ total: 2 });
    await expect(c.listBatches()).resolves.toMatchObject({ batches: expect.any(Array) });
  });
});

describe("every endpoint against the sandbox", () => {
  it("validates the responses of the agents, templates, crawl, map, health, jobs and legacy endpoints", async () => {
    const c = new WebDataClient({
      generation: 1,
      baseUrl: sandbox.url,
      apiKey: `${KEY}-all`,
      legacyBaseUrl: sandbox.legacyUrl,
      legacyAuth: "demo:demo",
    });
    try {
      const serp = await c.serp({ search_engine: "engine1_search", query: "coffee" });
      expect(serp.status).toBe("success");

      const agents = await c.listAgents({ limit: 5 });
      expect(agents.length).toBeGreaterThan(0);
      const agent = await c.getAgent(agents[0].name);
      expect(agent.name).toBe(agents[0].name);
      await expect(c.getAgent("no-such-agent-xyz")).rejects.toMatchObject({ code: "not_found" });

      const params = Object.fromEntries(
        (agent.input_properties ?? [])
          .filter((p) => p.required)
          .map((p) => [p.name, p.examples?.[0] ?? p.default ?? `${sandbox.siteUrl}/shop`]),
      );
      const run = await c.runAgent({ agent: agent.name, params });
      expect(run.task_id).toEqual(expect.any(String));
      await expect(c.runAgentAsync({ agent: agent.name, params })).resolves.toMatchObject({
        task_id: expect.any(String),
      });
      await expect(c.agentsAsync({ agent: agent.name, params })).resolves.toMatchObject({
        task_id: expect.any(String),
      });
      await expect(
        c.agentsBatch({ inputs: [{ params }], shared_inputs: { agent: agent.name } }),
      ).resolves.toMatchObject({
        batch_size: 1,
      });

      const domain = await c.checkDomainHealth({ domains: ["example.com", "shop.example"] });
      expect(domain.domains.map((d) => d.domain)).toEqual(["example.com", "shop.example"]);
      await expect(c.domainDriver({ url: "example.com" })).resolves.toMatchObject({
        driver: expect.any(String),
      });

      const crawl = await c.crawl({ url: `${sandbox.siteUrl}/`, limit: 3 });
      await expect(c.getCrawl(crawl.crawl_id)).resolves.toMatchObject({
        crawl: { total: expect.any(Number) },
      });
      await expect(c.mapAsync({ url: `${sandbox.siteUrl}/` })).resolves.toMatchObject({
        task_id: expect.any(String),
      });

      const runs = await c.jobRuns("job_daily_prices", { limit: 200 });
      expect(runs.items.length).toBeGreaterThan(0);
      const done = runs.items.find((r) => (r.artifact_ids ?? []).length > 0);
      expect(done).toBeDefined();
      const link = await c.artifactDownloadUrl(done!.id, done!.artifact_ids![0]);
      expect(link.url).toContain("/downloads/");

      const event = await c.socialEvent("social1", "evt42", { transform: true });
      expect(event.event.id).toEqual(expect.any(String));
      const raw = await c.socialEventRaw("social1", "evt42");
      expect(raw).toHaveProperty("data");
      await expect(c.socialEvent("social1", "evt42", { transform: false })).rejects.toMatchObject({
        code: "invalid_argument",
      });
      const legacyCalls = sandbox.requests.filter((r) => r.path.startsWith("/legacy/api/v1/realtime/"));
      expect(legacyCalls.every((r) => r.auth === "basic")).toBe(true);
    } finally {
      await c.close();
    }
  });

  it("validates template runs, template batches and version listings", async () => {
    const c = newClient();
    const versions = await c.listTemplateVersions("ecommerce_product", { limit: 1 });
    expect(versions).toMatchObject({ limit: 1, offset: 0, items: [{ name: "ecommerce_product" }] });
    const sample = versions.items[0].samples?.[0]?.input as { params?: Record<string, unknown> } | undefined;
    const params = sample?.params ?? (sample as Record<string, unknown>);
    const run = await c.runTemplate({ template: "ecommerce_product", params });
    expect(run.task_id).toEqual(expect.any(String));
    const batch = await c.templatesBatch({
      inputs: [{ params }],
      shared_inputs: { template: "ecommerce_product" },
    });
    expect(batch.batch_size).toBe(1);
  });
});
