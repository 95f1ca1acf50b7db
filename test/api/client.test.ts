/** WebDataClient against a scripted local server: URLs, auth, validation and error mapping. */
import { afterEach, describe, expect, it } from "vitest";
import { WebDataClient } from "../../src/api/client.js";
import { ApiError } from "../../src/api/errors.js";
import { type FakeServer, type Handler, json, startFakeServer, TASK } from "../helpers/fake-upstream.js";

const KEY = "wd_test_9f8e7d6c5b4a39281706";
let server: FakeServer | undefined;
let client: WebDataClient | undefined;

afterEach(async () => {
  await client?.close();
  await server?.close();
  client = undefined;
  server = undefined;
});

async function setup(
  handler: Handler,
  options: Partial<ConstructorParameters<typeof WebDataClient>[0]> = {},
) {
  server = await startFakeServer(handler);
  // A distinct key per test keeps the process-wide rate limiter of one test away from the others.
  client = new WebDataClient({
    generation: 1,
    baseUrl: server.url,
    apiKey: KEY,
    ...options,
  });
  return { server, client };
}

async function failure(promise: Promise<unknown>): Promise<ApiError> {
  const err = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(ApiError);
  return err as ApiError;
}

describe("requests", () => {
  it("joins a base URL with a path prefix and a trailing slash, and sends bearer auth", async () => {
    const { server } = await setup((_req, res) => json(res, 200, { task: TASK }));
    client = new WebDataClient({ generation: 1, baseUrl: `${server.url}/prefix/`, apiKey: KEY });
    await client.getTask("abc/def");
    expect(server.requests[0].url).toBe("/prefix/v1/tasks/abc%2Fdef");
    expect(server.requests[0].headers.authorization).toBe(`Bearer ${KEY}`);
    expect(server.requests[0].headers["user-agent"]).toMatch(/^web-data-mcp\//);
  });

  it("sends request bodies as given, as JSON", async () => {
    const { server, client } = await setup((_req, res) => json(res, 200, { task_id: "t1" }));
    const body = { url: "https://example.com", render: true, formats: ["markdown" as const] };
    await client.extractAsync(body);
    expect(server.requests[0].method).toBe("POST");
    expect(server.requests[0].url).toBe("/v1/extract/async");
    expect(server.requests[0].headers["content-type"]).toBe("application/json");
    expect(JSON.parse(server.requests[0].body)).toEqual(body);
  });

  it("puts list options in the query string", async () => {
    const { server, client } = await setup((_req, res) =>
      json(res, 200, { items: [], limit: 5, offset: 10, total: 0 }),
    );
    await client.listTemplateVersions("shop-product", { limit: 5, offset: 10 });
    await client.jobRuns("job-1", { limit: 5 });
    expect(server.requests[0].url).toBe("/v2/extract/templates/shop-product/versions?limit=5&offset=10");
    expect(server.requests[1].url).toBe("/v2/jobs/job-1/runs?limit=5");
  });

  it("calls the legacy endpoint with Basic auth and the transform flag", async () => {
    const event = { event: { id: "e1", name: "Meetup" } };
    const { server } = await setup((_req, res) => json(res, 200, event));
    client = new WebDataClient({
      generation: 1,
      baseUrl: server.url,
      apiKey: KEY,
      legacyBaseUrl: `${server.url}/legacy`,
      legacyAuth: "demo:demo",
    });
    const result = await client.socialEvent("social1", "e1", { transform: true });
    expect(result.event.name).toBe("Meetup");
    expect(server.requests[0].method).toBe("POST");
    expect(server.requests[0].url).toBe(
      "/legacy/api/v1/realtime/social/social1/v1/events/e1/details?transform=true",
    );
    expect(server.requests[0].headers.authorization).toBe(
      `Basic ${Buffer.from("demo:demo").toString("base64")}`,
    );
  });

  it("reads the raw legacy record with transform=false through socialEventRaw", async () => {
    const raw = { data: { event: { eventID: "e1" } } };
    const { server } = await setup((_req, res) => json(res, 200, raw));
    client = new WebDataClient({
      generation: 1,
      baseUrl: server.url,
      apiKey: KEY,
      legacyBaseUrl: server.url,
      legacyAuth: "u:p",
    });
    await expect(client.socialEventRaw("social1", "e1")).resolves.toEqual(raw);
    expect(server.requests[0].url).toBe(
      "/api/v1/realtime/social/social1/v1/events/e1/details?transform=false",
    );
    const err = await failure(client.socialEvent("social1", "e1", { transform: false }));
    expect(err.code).toBe("invalid_argument");
    expect(server.requests).toHaveLength(1);
  });

  it("refuses the legacy endpoint when it is not configured", async () => {
    const { client } = await setup((_req, res) => json(res, 200, {}));
    const err = await failure(client.socialEvent("social1", "e1"));
    expect(err.code).toBe("invalid_argument");
    expect(err.message).toContain("the legacy endpoint needs");
  });
});

describe("response validation", () => {
  it("keeps members the schema does not know", async () => {
    const { client } = await setup((_req, res) =>
      json(res, 200, { task: { ...TASK, novel: 1 }, extra: true }),
    );
    const response = (await client.getTask(TASK.id)) as Record<string, any>;
    expect(response.extra).toBe(true);
    expect(response.task.novel).toBe(1);
  });

  it("names the missing member a tool needs and the endpoint, with the body's start in details", async () => {
    const { client } = await setup((_req, res) =>
      json(res, 200, { status: "accepted", note: "x".repeat(600), key: KEY }),
    );
    const err = await failure(client.extractAsync({ url: "https://example.com/" }));
    expect(err.code).toBe("invalid_response");
    expect(err.message).toContain('required member "task_id"');
    expect(err.message).toContain("POST /v1/extract/async");
    expect(err.body).toContain('"status":"accepted"');
    expect(err.body?.length).toBe(500);
    expect(JSON.stringify(err)).not.toContain(KEY);
  });

  it("says so when a body is not JSON, quoting its start", async () => {
    const { server, client } = await setup((_req, res) => {
      res.writeHead(200, { "content-type": "application/json" });
      res.end(`{"task": {"id": "abc", ${"x".repeat(300)}`);
    });
    const err = await failure(client.getTask(TASK.id));
    expect(err.code).toBe("invalid_response");
    expect(err.message).toContain('the API returned a body that is not JSON ({"task": {"id": "abc"');
    expect(err.message.length).toBeLessThan(300);
    expect(server.requests).toHaveLength(1);
  });
});

describe("error statuses", () => {
  it("401 names the status and the key problem, is not retried, and never shows the key", async () => {
    const { server, client } = await setup((req, res) =>
      json(res, 401, {
        error: { code: "UNAUTHORIZED", message: `Invalid API key ${req.headers.authorization}` },
      }),
    );
    const err = await failure(client.getTask(TASK.id));
    expect(err.code).toBe("unauthorized");
    expect(err.status).toBe(401);
    expect(err.message).toContain("401");
    expect(err.message).toContain("the API key is missing or invalid");
    expect(err.message).not.toContain(KEY.slice(0, 5));
    expect(JSON.stringify(err)).not.toContain(KEY.slice(8, 13));
    expect(server.requests).toHaveLength(1);
  });

  it("422 carries the detail list and names the fields", async () => {
    const detail = [{ loc: ["body", "url"], msg: "field required", type: "missing" }];
    const { server, client } = await setup((_req, res) => json(res, 422, { detail }));
    const err = await failure(client.extract({ url: "https://example.com" }));
    expect(err.code).toBe("validation_failed");
    expect(err.detail).toEqual(detail);
    expect(err.message).toContain("body.url: field required");
    expect(server.requests).toHaveLength(1);
  });

  it.each([
    [400, "bad_request"],
    [402, "payment_required"],
    [404, "not_found"],
  ] as const)("%i becomes %s and is not retried", async (status, code) => {
    const { server, client } = await setup((_req, res) =>
      json(res, status, { error: { code: "E", message: "nope" } }),
    );
    const err = await failure(client.getBatch("b1"));
    expect(err.code).toBe(code);
    expect(err.status).toBe(status);
    expect(err.message).toContain("nope");
    expect(server.requests).toHaveLength(1);
  });

  it("a 5xx with an HTML body is an upstream error quoting the body", async () => {
    const { client } = await setup((_req, res) => {
      res.writeHead(502, { "content-type": "text/html" });
      res.end("<html>Bad gateway</html>");
    });
    const err = await failure(client.getTask(TASK.id));
    expect(err.code).toBe("upstream_error");
    expect(err.status).toBe(502);
    expect(err.message).toContain("Bad gateway");
  });
});

describe("closing", () => {
  it("is idempotent, and a call after close fails at once without retrying", async () => {
    const { server, client } = await setup((_req, res) => json(res, 200, { task: TASK }));
    await client.close();
    await client.close();
    const err = await failure(client.getTask(TASK.id));
    expect(err.code).toBe("network_error");
    expect(err.message).toContain("closed");
    expect(err.message).not.toContain("attempts");
    expect(server.requests).toHaveLength(0);
  });
});

describe("cancellation", () => {
  it("aborts an in-flight request with an aborted ApiError", async () => {
    const { server, client } = await setup(() => {
      // never answers
    });
    const controller = new AbortController();
    const pending = client.getTask(TASK.id, { signal: controller.signal });
    await server.received(1);
    controller.abort();
    const err = await failure(pending);
    expect(err.code).toBe("aborted");
  });

  it("rejects at once when the signal is already aborted, without a request", async () => {
    const { server, client } = await setup((_req, res) => json(res, 200, { task: TASK }));
    const err = await failure(client.getTask(TASK.id, { signal: AbortSignal.abort() }));
    expect(err.code).toBe("aborted");
    expect(server.requests).toHaveLength(0);
  });
});

describe("secrets", () => {
  /** Every run of 5 characters of `secret`. */
  const fragments = (secret: string) =>
    Array.from({ length: secret.length - 4 }, (_, i) => secret.slice(i, i + 5));

  it.each([400, 401, 402, 404, 422, 429, 500, 503])(
    "a %i whose body echoes the key and credential leaks no part of them",
    async (status) => {
      const apiKey = "wd_live_0123456789abcdefXYZ";
      const legacyAuth = "legacy-user:legacy-pass-98765";
      const encoded = Buffer.from(legacyAuth).toString("base64");
      const echo = `key ${apiKey} / ${apiKey.slice(3, 15)} / ${encoded} / legacy-pass-98765`;
      const { server } = await setup((_req, res) =>
        status === 422
          ? json(res, 422, { detail: [{ loc: ["body", apiKey], msg: echo, type: "x", input: apiKey }] })
          : status === 429
            ? json(res, 429, { error: { code: "RATE_LIMIT_EXCEEDED", message: echo, retry_after: 60 } })
            : json(res, status, { error: { code: apiKey, message: echo } }),
      );
      client = new WebDataClient({ generation: 1, baseUrl: server.url, apiKey, legacyAuth, maxAttempts: 1 });
      const err = await failure(client.getTask("t"));
      const shown = [
        err.message,
        String(err),
        err.stack ?? "",
        JSON.stringify(err),
        JSON.stringify(err.detail ?? null),
      ];
      for (const text of shown) {
        for (const f of [...fragments(apiKey), ...fragments(encoded), ...fragments("legacy-pass-98765")]) {
          expect(text).not.toContain(f);
        }
      }
    },
  );
});
