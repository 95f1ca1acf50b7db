import { afterEach, describe, expect, it } from "vitest";
import { SocialEventResponseSchema } from "../../src/api/schemas.js";
import { useSandbox } from "../helpers/sandbox.js";
import { call, shape, startReceiver, until } from "./helpers.js";
import {
  CrawlIdResponseSchema,
  CrawlStatusSchema,
  DomainHealthResponseSchema,
  DriverKnowledgeSchema,
  TaskResultSchema,
} from "./spec-shapes.js";

describe("crawl, map, domain health, driver and the legacy endpoint", () => {
  const sandbox = useSandbox({ taskLatencyMs: 20, crawlPageMs: 5, allowCallbacks: true });
  afterEach(() => sandbox.faults.clear());

  const waitCrawl = (id: string) =>
    until(
      async () => shape(CrawlStatusSchema, (await call(sandbox, "GET", `/v1/crawl/${id}`)).body),
      (s) => s.crawl.status !== "running",
    );

  it("crawls the demo site breadth-first up to the limit; each page's markdown is a task result", async () => {
    const { crawl_id } = shape(
      CrawlIdResponseSchema,
      (await call(sandbox, "POST", "/v1/crawl", { body: { url: `${sandbox.siteUrl}/`, limit: 8 } })).body,
    );
    const done = await waitCrawl(crawl_id);
    expect(done.crawl).toMatchObject({ status: "succeeded", completed: 8, total: 8 });
    expect(done.crawl.tasks[0].url).toBe(`${sandbox.siteUrl}/`);
    expect(new Set(done.crawl.tasks.map((t) => t.url)).size).toBe(8);
    expect(done.crawl.tasks.every((t) => t.url?.startsWith(sandbox.siteUrl))).toBe(true);
    const page = shape(
      TaskResultSchema,
      (await call(sandbox, "GET", `/v1/tasks/${done.crawl.tasks[1].id}/results`)).body,
    );
    expect(page.data.markdown?.length).toBeGreaterThan(0);
    expect((await call(sandbox, "GET", "/v1/crawl/nope")).status).toBe(404);
  });

  it("crawls the whole site when the limit allows", async () => {
    const { body } = await call(sandbox, "POST", "/v1/crawl", {
      body: { url: `${sandbox.siteUrl}/`, limit: 1000 },
    });
    const done = await waitCrawl(body.crawl_id);
    expect(done.crawl.status).toBe("succeeded");
    expect(done.crawl.completed).toBeGreaterThanOrEqual(30);
  });

  it("sends only the requested crawl events, with custom headers and metadata", async () => {
    const receiver = await startReceiver();
    try {
      const { body } = await call(sandbox, "POST", "/v1/crawl", {
        body: {
          url: `${sandbox.siteUrl}/docs`,
          limit: 3,
          callback: {
            url: `${receiver.url}/crawl`,
            headers: { "x-hook-secret": "s3cret" },
            metadata: { run: 7 },
            events: ["started", "completed"],
          },
        },
      });
      const deliveries = await receiver.waitFor(2);
      expect(deliveries.map((d) => d.body.event)).toEqual(["started", "completed"]);
      expect(deliveries[1].body).toMatchObject({
        crawl_id: body.crawl_id,
        metadata: { run: 7 },
        crawl: { status: "succeeded", completed: 3 },
      });
      expect(deliveries[0].headers["x-hook-secret"]).toBe("s3cret");
    } finally {
      await receiver.close();
    }
  });

  it("crawl_fail makes the crawl fail with an error and a failed event", async () => {
    const receiver = await startReceiver();
    try {
      sandbox.faults.add({ kind: "crawl_fail", count: 1 });
      const { body } = await call(sandbox, "POST", "/v1/crawl", {
        body: { url: `${sandbox.siteUrl}/`, limit: 5, callback: { url: receiver.url, events: ["failed"] } },
      });
      const done = await waitCrawl(body.crawl_id);
      expect(done.crawl.status).toBe("failed");
      expect(done.crawl.error).toBeTruthy();
      const [event] = await receiver.waitFor(1);
      expect(event.body).toMatchObject({ event: "failed", crawl_id: body.crawl_id, error: done.crawl.error });
    } finally {
      await receiver.close();
    }
  });

  it("maps a site's links asynchronously", async () => {
    const { body } = await call(sandbox, "POST", "/v1/map/async", {
      body: { url: `${sandbox.siteUrl}/`, limit: 50 },
    });
    await until(
      () => call(sandbox, "GET", `/v1/tasks/${body.task_id}`),
      (r) => r.body.task.state !== "pending",
    );
    const result = shape(
      TaskResultSchema,
      (await call(sandbox, "GET", `/v1/tasks/${body.task_id}/results`)).body,
    );
    expect(result.data.links!.length).toBeGreaterThanOrEqual(30);
    expect(result.data.links).toContain(`${sandbox.siteUrl}/shop/products/lumen-headlamp`);
  });

  it("checks domain health in request order, deterministically", async () => {
    const domains = ["example.com", "shop.example.org", "news.example.net"];
    const r = await call(sandbox, "POST", "/v1/domain-health/check", { body: { domains } });
    const health = shape(DomainHealthResponseSchema, r.body);
    expect(health.domains.map((d) => d.domain)).toEqual(domains);
    for (const d of health.domains) {
      expect(["up", "degraded", "down"]).toContain(d.status);
      expect(d.history).toHaveLength(24);
      expect(d.history![0].hours_ago).toBe(0);
    }
    const again = await call(sandbox, "POST", "/v1/domain-health/check", { body: { domains } });
    expect(again.body.domains.map((d: { status: string }) => d.status)).toEqual(
      health.domains.map((d) => d.status),
    );
    const url = await call(sandbox, "POST", "/v1/domain-health/check", {
      body: { domains: ["ok.com", "https://x.com/"] },
    });
    expect(url.status).toBe(422);
    expect(url.body.detail[0].loc).toEqual(["body", "domains", 1]);
    const tooMany = Array.from({ length: 101 }, (_, i) => `d${i}.com`);
    expect(
      (await call(sandbox, "POST", "/v1/domain-health/check", { body: { domains: tooMany } })).status,
    ).toBe(422);
    expect((await call(sandbox, "POST", "/v1/domain-health/check", { body: { domains: [] } })).status).toBe(
      422,
    );
  });

  it("recommends a driver for a domain or an agent", async () => {
    const byUrl = shape(
      DriverKnowledgeSchema,
      (await call(sandbox, "GET", "/v1/domain-knowledge/driver?url=example.com")).body,
    );
    expect(["vx6", "vx8", "vx10"]).toContain(byUrl.driver);
    const byAgent = await call(sandbox, "GET", "/v1/domain-knowledge/driver?agent=hotel_listing");
    shape(DriverKnowledgeSchema, byAgent.body);
    expect((await call(sandbox, "GET", "/v1/domain-knowledge/driver")).status).toBe(422);
    expect((await call(sandbox, "GET", "/v1/domain-knowledge/driver?agent=ghost")).status).toBe(404);
  });

  it("serves the legacy social event with Basic auth, transformed or raw", async () => {
    const path = `${sandbox.legacyUrl}/api/v1/realtime/social/facebook/v1/events/12345/details`;
    const basic = `Basic ${Buffer.from("demo:demo").toString("base64")}`;
    const get = await call(sandbox, "GET", `${path}?transform=true`, { auth: basic });
    expect(get.status).toBe(200);
    const event = shape(SocialEventResponseSchema, get.body).event;
    expect(event.id).toBe("12345");
    const post = await call(sandbox, "POST", path, { auth: basic });
    expect(post.body).toEqual(get.body);
    const raw = await call(sandbox, "GET", `${path}?transform=false`, { auth: basic });
    expect(raw.body.data.event.eventID).toBe("12345");
    expect(
      (await call(sandbox, "GET", path, { auth: `Basic ${Buffer.from("demo:wrong").toString("base64")}` }))
        .status,
    ).toBe(401);
    expect((await call(sandbox, "GET", path)).status).toBe(401);
    expect((await call(sandbox, "GET", `${path}?transform=maybe`, { auth: basic })).status).toBe(422);
    expect(sandbox.requests.at(-1)?.auth).toBe("basic");
  });
});
