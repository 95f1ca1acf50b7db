/** Error bodies in every shape the service uses: the service's own message reaches the error. */
import { afterEach, describe, expect, it } from "vitest";
import { WebDataClient } from "../../src/api/client.js";
import { serviceError } from "../../src/api/error-body.js";
import { ApiError } from "../../src/api/errors.js";
import { type FakeServer, json, startFakeServer } from "../helpers/fake-upstream.js";

let server: FakeServer | undefined;
let client: WebDataClient | undefined;

afterEach(async () => {
  await client?.close();
  await server?.close();
  client = undefined;
  server = undefined;
});

describe("serviceError", () => {
  it.each([
    [
      "{error: {code, message}}",
      { error: { code: "NOT_FOUND", message: "Task t1 not found" } },
      "Task t1 not found",
      "NOT_FOUND",
    ],
    ["{error: string}", { error: "Task t1 not found" }, "Task t1 not found", undefined],
    ["{detail: string}", { detail: "Task t1 not found" }, "Task t1 not found", undefined],
    [
      "{detail: [...]}",
      { detail: [{ loc: ["body", "url"], msg: "Field required", type: "missing" }] },
      "body.url: Field required",
      undefined,
    ],
    ["{message}", { message: "Task t1 not found", code: "E404" }, "Task t1 not found", "E404"],
  ])("%s", (_n, body, message, code) => {
    expect(serviceError(JSON.stringify(body))).toEqual({ message, ...(code ? { code } : {}) });
  });

  it("a body that is not JSON is quoted short; an empty one says nothing", () => {
    expect(serviceError("<html>Bad gateway</html>").message).toBe("<html>Bad gateway</html>");
    expect(serviceError("")).toEqual({});
  });
});

describe("the client's errors carry the service's message", () => {
  it.each([
    [404, { detail: "Task t1 not found" }],
    [404, { message: "Task t1 not found" }],
    [401, { detail: "Task t1 not found" }],
    [400, { error: { code: "BAD", message: "Task t1 not found" } }],
    [402, { detail: [{ loc: ["body"], msg: "Task t1 not found" }] }],
  ])("%i %j", async (status, body) => {
    server = await startFakeServer((_req, res) => json(res, status, body));
    client = new WebDataClient({ baseUrl: server.url, apiKey: "err-key-1234567", maxAttempts: 1 });
    const err = await client.getTask("t1").catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ApiError);
    expect((err as ApiError).message).toContain("Task t1 not found");
  });

  it("a 422 whose detail entries lack loc and type still lists the service's words", async () => {
    server = await startFakeServer((_req, res) =>
      json(res, 422, { detail: [{ msg: "url is not reachable" }] }),
    );
    client = new WebDataClient({ baseUrl: server.url, apiKey: "err-key-1234567", maxAttempts: 1 });
    const err = (await client.extract({ url: "https://example.com/" }).catch((e: unknown) => e)) as ApiError;
    expect(err.code).toBe("validation_failed");
    expect(err.message).toContain("url is not reachable");
    expect(err.detail?.[0]?.msg).toBe("url is not reachable");
  });

  it.each(["..", ".", "", "  "])("the id %j is refused before anything is sent", async (id) => {
    server = await startFakeServer((_req, res) => json(res, 200, {}));
    client = new WebDataClient({ baseUrl: server.url, apiKey: "err-key-1234567", maxAttempts: 1 });
    for (const call of [() => client!.getTask(id), () => client!.getCrawl(id), () => client!.getBatch(id)]) {
      const err = await call().catch((e: unknown) => e);
      expect(err).toMatchObject({ code: "invalid_argument" });
    }
    expect(server.requests).toHaveLength(0);
  });
});
