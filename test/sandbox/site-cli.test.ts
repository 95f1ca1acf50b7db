import { describe, expect, it, vi } from "vitest";
import { runSandboxCommand, type Sandbox } from "../../src/sandbox/index.js";
import { useSandbox } from "../helpers/sandbox.js";
import { call, KEY, shape, until } from "./helpers.js";
import { AgentDetailSchema, TaskResultSchema } from "./spec-shapes.js";

describe("demo site, large pages, async search, agent generation and the CLI entry", () => {
  const sandbox = useSandbox({ taskLatencyMs: 10 });

  it("serves the demo site without auth, linking 30+ pages from the sitemap", async () => {
    const home = await fetch(`${sandbox.siteUrl}/`);
    expect(home.status).toBe(200);
    expect(home.headers.get("content-type")).toContain("text/html");
    const sitemap = await (await fetch(`${sandbox.siteUrl}/sitemap`)).text();
    const links = new Set([...sitemap.matchAll(/href="([^"]+)"/g)].map((m) => m[1]));
    expect(links.size).toBeGreaterThanOrEqual(30);
    for (const link of [...links].slice(0, 40)) expect((await fetch(link)).status, link).toBe(200);
    expect((await fetch(`${sandbox.siteUrl}/no/such/page`)).status).toBe(404);
  });

  it("serves /site/slow after the asked delay, without blocking the API", async () => {
    const order: string[] = [];
    const slow = fetch(`${sandbox.siteUrl}/slow?ms=300`).then(async (r) =>
      order.push(`slow ${r.status} ${(await r.text()).includes("Slow page")}`),
    );
    await call(sandbox, "GET", "/v1/tasks").then(() => order.push("api"));
    await slow;
    expect(order).toEqual(["api", "slow 200 true"]);
  });

  it("streams /site/large?mb=N at about N megabytes", async () => {
    const res = await fetch(`${sandbox.siteUrl}/large?mb=2`);
    const body = await res.text();
    expect(body.length).toBeGreaterThan(1.9 * 1024 * 1024);
    expect(body.length).toBeLessThan(2.1 * 1024 * 1024);
    expect(body.endsWith("</html>\n")).toBe(true);
  });

  it("extracts the large page into a large markdown result", async () => {
    const r = await call(sandbox, "POST", "/v1/extract", {
      body: { url: `${sandbox.siteUrl}/large?mb=3`, render: true },
    });
    const result = shape(TaskResultSchema, r.body);
    expect(result.data.markdown!.length).toBeGreaterThan(2 * 1024 * 1024);
    expect(result.metadata?.driver).toBe("vx8");
  });

  it("runs an async search whose task result carries the SERP data", async () => {
    const { body } = await call(sandbox, "POST", "/v1/search/async", {
      body: { search_engine: "engine2_search", query: "tent" },
    });
    await until(
      () => call(sandbox, "GET", `/v1/tasks/${body.task_id}`),
      (r) => r.body.task.state !== "pending",
    );
    const result = shape(
      TaskResultSchema,
      (await call(sandbox, "GET", `/v1/tasks/${body.task_id}/results`)).body,
    );
    expect((result.data.parsing as { entities: { organic: unknown[] } }).entities.organic).toHaveLength(10);
  });

  it("creates a custom agent within the output schema limits, and 422s one beyond them", async () => {
    const ok = await call(sandbox, "POST", "/v1/agents/generations", {
      body: {
        name: "trail_conditions",
        description: "Trail conditions from a park page",
        output_schema: {
          type: "object",
          properties: { trail: { type: "string" }, open: { type: "boolean" } },
        },
      },
    });
    expect(ok.status).toBe(200);
    const agent = shape(AgentDetailSchema, ok.body);
    expect(agent).toMatchObject({ name: "trail_conditions", is_public: false, managed_by: "self_managed" });
    expect((await call(sandbox, "GET", "/v1/agents/trail_conditions")).status).toBe(200);
    const run = await call(sandbox, "POST", "/v1/agents/run", { body: { agent: "trail_conditions" } });
    expect(Object.keys(run.body.data.parsing)).toEqual(["trail", "open"]);

    const deep = (n: number): Record<string, unknown> =>
      n === 0 ? { type: "string" } : { type: "object", properties: { child: deep(n - 1) } };
    const tooMany = Object.fromEntries(Array.from({ length: 101 }, (_, i) => [`f${i}`, { type: "string" }]));
    const refused: [string, unknown][] = [
      ["format", { type: "object", properties: { u: { type: "string", format: "uri" } } }],
      ["pattern", { type: "object", properties: { u: { type: "string", pattern: "^a" } } }],
      ["minimum", { type: "object", properties: { n: { type: "number", minimum: 0 } } }],
      ["root anyOf", { anyOf: [{ type: "object", properties: {} }] }],
      ["null type", { type: "object", properties: { x: { type: "null" } } }],
      ["scalar root", { type: "string" }],
      ["depth 6", deep(6)],
      ["101 properties", { type: "object", properties: tooMany }],
    ];
    for (const [label, output_schema] of refused) {
      const r = await call(sandbox, "POST", "/v1/agents/generations", {
        body: { description: label, output_schema },
      });
      expect(r.status, label).toBe(422);
      expect(r.body.detail[0].loc.slice(0, 2), label).toEqual(["body", "output_schema"]);
    }
    expect(
      (
        await call(sandbox, "POST", "/v1/agents/generations", {
          body: { description: "d", output_schema: deep(5) },
        })
      ).status,
    ).toBe(200);
    const arrayRoot = { type: "array", items: { type: "object", properties: { a: { type: "string" } } } };
    expect(
      (
        await call(sandbox, "POST", "/v1/agents/generations", {
          body: { description: "d", output_schema: arrayRoot },
        })
      ).status,
    ).toBe(200);
  });

  it("runSandboxCommand starts a sandbox and writes one line with its URL to stderr", async () => {
    const lines: string[] = [];
    const spy = vi.spyOn(process.stderr, "write").mockImplementation((chunk: string | Uint8Array) => {
      lines.push(String(chunk));
      return true;
    });
    let started: Sandbox | undefined;
    try {
      started = await runSandboxCommand({ port: 0, key: KEY });
    } finally {
      spy.mockRestore();
    }
    try {
      expect(lines).toHaveLength(1);
      expect(lines[0]).toContain(started.url);
      expect(lines[0]).not.toContain(KEY);
      expect((await call(started, "GET", "/v1/tasks")).status).toBe(200);
      expect((await call(started, "GET", "/v1/tasks", { auth: "Bearer other" })).status).toBe(401);
    } finally {
      await started.close();
    }
  });
});
