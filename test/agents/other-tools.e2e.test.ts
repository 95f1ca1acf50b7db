/**
 * run_template, check_domain_health, job_runs and get_social_event end to end over stdio against
 * the sandbox. Bad arguments are refused with no request reaching the sandbox.
 */
import { describe, expect, it } from "vitest";
import type { Sandbox } from "../../src/sandbox/index.js";
import { inProcessAgainst } from "../helpers/in-process.js";
import { call, type McpSession, requestsSince, serverForFile, textOf } from "../helpers/mcp.js";

let sandbox: Sandbox;
let server: McpSession;

serverForFile(
  (started) => {
    ({ sandbox, server } = started);
  },
  (s) => ({
    WEBDATA_TOOLSETS: "templates,health,jobs,legacy",
    WEBDATA_LEGACY_AUTH: "demo:demo",
    WEBDATA_LEGACY_BASE_URL: s.legacyUrl,
  }),
  inProcessAgainst,
);

/** Calls a tool and returns the result with the API requests it caused. */
async function traced(name: string, args: Record<string, unknown>) {
  const from = sandbox.requests.length;
  const result = await call(server, name, args);
  return { result, requests: requestsSince(sandbox, from) };
}

describe("run_template", () => {
  it("run_template(no params): the latest version's input schema, no run", async () => {
    const { result, requests } = await traced("run_template", { template: "ecommerce_product" });
    expect(result.isError).toBeFalsy();
    expect(result.structuredContent).toMatchObject({ template: "ecommerce_product", version: 2 });
    expect(result.structuredContent.input_schema.required).toEqual(["url"]);
    expect(textOf(result)).toContain('- "url" (string, required): Page URL');
    expect(requests.every((r) => r.method === "GET")).toBe(true);
  });

  it("run_template(bad params): the schema's own words, no run request", async () => {
    const { result, requests } = await traced("run_template", {
      template: "ecommerce_product",
      params: { url: "shop.example.com/p/1", country: "USA" },
    });
    expect(result.isError).toBe(true);
    const text = textOf(result);
    expect(text).toMatch(/params\.url: .* — Page URL/);
    expect(text).toMatch(/params\.country: .* — ISO alpha-2 country code/);
    expect(requests.filter((r) => r.method === "POST")).toEqual([]);
  });

  it("run_template(version 1): validates against that version", async () => {
    const r = await call(server, "run_template", {
      template: "ecommerce_product",
      version: 1,
      params: { url: "https://shop.example.com/p/1", country: "us" },
    });
    expect(r.isError).toBe(true);
    expect(textOf(r)).toMatch(/v1 are wrong/);
    const none = await call(server, "run_template", {
      template: "ecommerce_product",
      version: 9,
      params: {},
    });
    expect(textOf(none)).toMatch(/has no version 9; it has 1, 2/);
  });

  it("run_template(valid): data.parsing", async () => {
    const { result, requests } = await traced("run_template", {
      template: "ecommerce_product",
      params: { url: "https://shop.example.com/p/1" },
    });
    expect(result.isError).toBeFalsy();
    expect(result.structuredContent.parsing).toHaveProperty("title");
    expect(requests.map((r) => `${r.method} ${r.path}`)).toContain("POST /v2/extract/templates/run");
  });

  it("run_template(inputs): a batch, waited for, one result per input", async () => {
    const r = await call(server, "run_template", {
      template: "ecommerce_product",
      inputs: [
        { params: { url: "https://shop.example.com/p/1" } },
        { params: { url: "https://shop.example.com/p/2" } },
      ],
    });
    expect(r.isError).toBeFalsy();
    expect(r.structuredContent.status).toBe("done");
    expect(r.structuredContent.batch_id).toBeTypeOf("string");
    expect(r.structuredContent.results).toHaveLength(2);
    expect(r.structuredContent.results[1].parsing).toHaveProperty("title");
  });

  it("run_template(list_versions): paginated", async () => {
    const r = await call(server, "run_template", {
      template: "ecommerce_product",
      list_versions: true,
      limit: 1,
    });
    expect(r.structuredContent.versions).toHaveLength(1);
    expect(r.structuredContent.total).toBe(2);
    expect(r.structuredContent.next_offset).toBe(1);
    const next = await call(server, "run_template", {
      template: "ecommerce_product",
      list_versions: true,
      limit: 1,
      offset: 1,
    });
    expect(next.structuredContent.versions[0].version_number).not.toBe(
      r.structuredContent.versions[0].version_number,
    );
    expect(next.structuredContent.next_offset).toBeUndefined();
  });

  it("run_template(unknown template): not_found", async () => {
    const r = await call(server, "run_template", { template: "no_such_template", params: {} });
    expect(r.isError).toBe(true);
    expect(textOf(r)).toMatch(/no_such_template/);
  });
});

describe("check_domain_health", () => {
  it("check_domain_health(URL): invalid_argument naming the bare domain, no request", async () => {
    const { result, requests } = await traced("check_domain_health", {
      domains: ["example.com", "https://shop.example.com/p/1"],
    });
    expect(result.isError).toBe(true);
    expect(textOf(result)).toContain(
      '"https://shop.example.com/p/1" is not a bare domain — pass "shop.example.com"',
    );
    expect(result._meta?.["web-data/error"]).toMatchObject({ code: "invalid_argument" });
    expect(requests).toEqual([]);
  });

  it("check_domain_health(101 domains): refused by the schema, no request", async () => {
    const domains = Array.from({ length: 101 }, (_, i) => `d${i}.example.com`);
    const { result, requests } = await traced("check_domain_health", { domains });
    expect(result.isError).toBe(true);
    expect(requests).toEqual([]);
  });

  it("check_domain_health(include_driver): one entry per domain in order, with driver knowledge", async () => {
    const { result, requests } = await traced("check_domain_health", {
      domains: ["shop.example.com", "news.example.org"],
      include_driver: true,
    });
    expect(result.isError).toBeFalsy();
    const rows = result.structuredContent.domains;
    expect(rows.map((d: { domain: string }) => d.domain)).toEqual(["shop.example.com", "news.example.org"]);
    expect(rows[0].driver.driver).toMatch(/^vx/);
    expect(rows[0].history.length).toBeGreaterThan(0);
    expect(requests.filter((r) => r.path === "/v2/domain-knowledge/driver")).toHaveLength(2);
  });
});

describe("job_runs", () => {
  it("job_runs(job_id, limit): a page of runs with next_offset", async () => {
    const r = await call(server, "job_runs", { job_id: "job_hourly_news", limit: 10 });
    expect(r.isError).toBeFalsy();
    expect(r.structuredContent.runs).toHaveLength(10);
    expect(r.structuredContent.total).toBe(30);
    expect(r.structuredContent.next_offset).toBe(10);
  });

  it("job_runs(run_id, artifact_id): the artifact's download URL", async () => {
    const runs = await call(server, "job_runs", { job_id: "job_daily_prices" });
    const run = runs.structuredContent.runs.find((x: { artifact_ids?: string[] }) => x.artifact_ids?.length);
    const r = await call(server, "job_runs", { run_id: run.id, artifact_id: run.artifact_ids[0] });
    expect(r.isError).toBeFalsy();
    expect(r.structuredContent.download.url).toMatch(/^http/);
    expect(r.structuredContent.download.expires_at).toBeTypeOf("string");
  });

  it("job_runs(bad arguments): refused with no request", async () => {
    for (const args of [{ artifact_id: "a1" }, { job_id: "j", limit: 500 }]) {
      const { result, requests } = await traced("job_runs", args);
      expect(result.isError, JSON.stringify(args)).toBe(true);
      expect(requests, JSON.stringify(args)).toEqual([]);
    }
  });

  it("job_runs(unknown job): not_found", async () => {
    const r = await call(server, "job_runs", { job_id: "no_such_job" });
    expect(r.isError).toBe(true);
    expect(r._meta?.["web-data/error"]).toMatchObject({ code: "not_found" });
  });
});

describe("get_social_event", () => {
  it("get_social_event(valid): the event over Basic auth on the legacy host", async () => {
    const { result, requests } = await traced("get_social_event", { platform: "social", event_id: "123456" });
    expect(result.isError).toBeFalsy();
    expect(result.structuredContent.event.id).toBeTypeOf("string");
    expect(requests.map((r) => r.auth)).toEqual(["basic"]);
    expect(textOf(result)).not.toContain("demo:demo");
  });

  it("get_social_event(transform: false): the raw record", async () => {
    const r = await call(server, "get_social_event", {
      platform: "social",
      event_id: "123456",
      transform: false,
    });
    expect(r.isError).toBeFalsy();
    expect(r.structuredContent.raw).toBeTypeOf("object");
    expect(r.structuredContent.event).toBeUndefined();
  });

  it("get_social_event(bad ids): refused with no request", async () => {
    for (const args of [
      { platform: "social", event_id: "../../v1/agents" },
      { platform: "", event_id: "1" },
    ]) {
      const { result, requests } = await traced("get_social_event", args);
      expect(result.isError, JSON.stringify(args)).toBe(true);
      expect(requests, JSON.stringify(args)).toEqual([]);
    }
  });
});
