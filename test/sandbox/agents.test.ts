import { describe, expect, it } from "vitest";
import type { AgentDetail } from "../../src/api/schemas.js";
import { TaskCallbackBodySchema } from "../../src/api/schemas.js";
import { startSandbox } from "../../src/sandbox/index.js";
import { useSandbox } from "../helpers/sandbox.js";
import { call, shape, startReceiver, until } from "./helpers.js";
import {
  AgentDetailSchema,
  AgentRecordSchema,
  BatchProgressSchema,
  BatchSubmissionSchema,
  TaskIdResponseSchema,
  TaskResultSchema,
} from "./spec-shapes.js";

describe("agents", () => {
  const sandbox = useSandbox({ taskLatencyMs: 20, allowCallbacks: true });

  it("lists at least 20 agents across verticals, with filters and paging", async () => {
    const r = await call(sandbox, "GET", "/v1/agents");
    expect(r.status).toBe(200);
    const agents = (r.body as unknown[]).map((a) => shape(AgentRecordSchema, a));
    expect(agents.length).toBeGreaterThanOrEqual(20);
    expect(new Set(agents.map((a) => a.vertical)).size).toBeGreaterThanOrEqual(8);
    expect(agents.some((a) => a.domain?.startsWith("https://"))).toBe(true);
    expect(agents.some((a) => a.domain && !a.domain.includes("://"))).toBe(true);
    expect(agents[0]).not.toHaveProperty("input_properties");

    const priv = (await call(sandbox, "GET", "/v1/agents?privacy=private")).body as { is_public: boolean }[];
    expect(priv.length).toBeGreaterThan(0);
    expect(priv.every((a) => !a.is_public)).toBe(true);
    const community = (await call(sandbox, "GET", "/v1/agents?managed_by=community")).body as {
      managed_by: string;
    }[];
    expect(community.every((a) => a.managed_by === "community")).toBe(true);
    const page = (await call(sandbox, "GET", "/v1/agents?limit=5&offset=5")).body as { name: string }[];
    expect(page.map((a) => a.name)).toEqual(agents.slice(5, 10).map((a) => a.name));
    for (const q of ["limit=0", "limit=251", "offset=-1", "privacy=secret", "managed_by=me"]) {
      expect((await call(sandbox, "GET", `/v1/agents?${q}`)).status).toBe(422);
    }
  });

  it("pads the catalog with extraAgents", async () => {
    const big = await startSandbox({ extraAgents: 200 });
    try {
      const first = (await call(big, "GET", "/v1/agents?limit=250")).body as unknown[];
      const rest = (await call(big, "GET", "/v1/agents?limit=250&offset=250")).body as unknown[];
      expect(first.length + rest.length).toBeGreaterThanOrEqual(220);
    } finally {
      await big.close();
    }
  });

  it("details an agent with input_properties, output_schema and feature_flags", async () => {
    const r = await call(sandbox, "GET", "/v1/agents/ecommerce_search_listing");
    const agent = shape(AgentDetailSchema, r.body);
    expect(agent.feature_flags).toEqual({ is_localization_supported: true, is_pagination_supported: true });
    const page = agent.input_properties?.find((p) => p.is_pagination_param);
    expect(page?.name).toBe("page");
    expect(agent.input_properties?.find((p) => p.name === "query")?.rules).toContain("min_length:2");
    expect(agent.output_schema?.products.type).toBe("array");
    expect((await call(sandbox, "GET", "/v1/agents/nope")).status).toBe(404);
  });

  it("runs an agent synchronously; output follows the schema, is deterministic and differs per page", async () => {
    const run = async (page: number) => {
      const r = await call(sandbox, "POST", "/v1/agents/run", {
        body: { agent: "ecommerce_search_listing", params: { query: "boots", page } },
      });
      expect(r.status).toBe(200);
      return shape(TaskResultSchema, r.body);
    };
    const [a, again, b] = [await run(1), await run(1), await run(2)];
    const parsing = a.data.parsing as { total_results: number; products: { title: string; url: string }[] };
    expect(typeof parsing.total_results).toBe("number");
    expect(parsing.products.length).toBeGreaterThan(0);
    expect(typeof parsing.products[0].url).toBe("string");
    expect(a.data.html).toBeUndefined();
    expect(again.data.parsing).toEqual(a.data.parsing);
    expect(b.data.parsing).not.toEqual(a.data.parsing);
  });

  it("adds html, markdown and headers only when asked", async () => {
    const r = await call(sandbox, "POST", "/v1/agents/run", {
      body: {
        agent: "news_article",
        params: { url: "https://news.example.com/a" },
        formats: ["html", "markdown", "headers"],
      },
    });
    const result = shape(TaskResultSchema, r.body);
    expect(result.data.html).toContain("<html");
    expect(result.data.markdown).toContain("headline");
    expect(result.data.headers?.["content-type"]).toContain("text/html");
  });

  it("validates params against input_properties in the agent's words", async () => {
    const bad = async (params: Record<string, unknown>) => {
      const r = await call(sandbox, "POST", "/v1/agents/run", {
        body: { agent: "ecommerce_search_listing", params },
      });
      expect(r.status).toBe(422);
      return r.body.detail as { loc: unknown[]; msg: string; type: string }[];
    };
    expect((await bad({}))[0]).toMatchObject({ loc: ["body", "params", "query"], type: "missing" });
    const short = (await bad({ query: "a" }))[0];
    expect(short.type).toBe("string_too_short");
    expect(short.msg).toContain("Search keyword or phrase");
    expect((await bad({ query: "boots", page: 0 }))[0].type).toBe("greater_than_equal");
    expect((await bad({ query: "boots", page: 1.5 }))[0].type).toBe("int_type");
    expect((await bad({ query: "boots", sort: "cheapest" }))[0].type).toBe("enum");
    expect((await bad({ query: "boots", colour: "red" }))[0]).toMatchObject({ type: "extra_forbidden" });
    const pattern = await call(sandbox, "POST", "/v1/agents/run", {
      body: { agent: "ecommerce_product_page", params: { url: "ftp://x" } },
    });
    expect(pattern.body.detail[0].type).toBe("string_pattern_mismatch");
    expect(
      (await call(sandbox, "POST", "/v1/agents/run", { body: { agent: "ghost", params: {} } })).status,
    ).toBe(404);
  });

  it("runs agents asynchronously on both paths, with params.callback_url", async () => {
    const receiver = await startReceiver();
    try {
      for (const path of ["/v1/agent/async", "/v1/agents/async"]) {
        const r = await call(sandbox, "POST", path, {
          body: {
            agent: "social_profile",
            params: { username: "acme_outfitters", callback_url: `${receiver.url}${path}` },
          },
        });
        const { task_id } = shape(TaskIdResponseSchema, r.body);
        const done = await until(
          () => call(sandbox, "GET", `/v1/tasks/${task_id}`),
          (x) => x.body.task.state !== "pending",
        );
        expect(done.body.task).toMatchObject({ state: "success", api_type: "agent" });
        const results = shape(
          TaskResultSchema,
          (await call(sandbox, "GET", `/v1/tasks/${task_id}/results`)).body,
        );
        expect((results.data.parsing as { followers: number }).followers).toBeTypeOf("number");
      }
      const deliveries = await receiver.waitFor(2);
      for (const d of deliveries) shape(TaskCallbackBodySchema, d.body);
      expect(deliveries.map((d) => d.path).sort()).toEqual(["/v1/agent/async", "/v1/agents/async"]);
    } finally {
      await receiver.close();
    }
  });

  it("runs an agent batch; item params merge over shared params", async () => {
    const r = await call(sandbox, "POST", "/v1/agents/batch", {
      body: {
        shared_inputs: { agent: "ecommerce_search_listing", params: { country: "de" } },
        inputs: [{ params: { query: "tent" } }, { params: { query: "stove", page: 2 } }],
      },
    });
    const batch = shape(BatchSubmissionSchema, r.body);
    expect(batch.batch_size).toBe(2);
    expect(batch.tasks?.[0].input).toMatchObject({ params: { query: "tent", country: "de", page: 1 } });
    const progress = await until(
      async () =>
        shape(
          BatchProgressSchema,
          (await call(sandbox, "GET", `/v1/batches/${batch.batch_id}/progress`)).body,
        ),
      (p) => p.completed === true,
    );
    expect(progress.completed_count).toBe(2);
    const invalid = await call(sandbox, "POST", "/v1/agents/batch", {
      body: {
        shared_inputs: { agent: "ecommerce_search_listing" },
        inputs: [{ params: { query: "ok" } }, { params: {} }],
      },
    });
    expect(invalid.status).toBe(422);
    expect(invalid.body.detail[0].loc).toEqual(["body", "inputs", 1, "params", "query"]);
  });

  it("catalog.add and catalog.remove change the listing", async () => {
    const custom = shape(AgentDetailSchema, (await call(sandbox, "GET", "/v1/agents/recipe_page")).body);
    sandbox.catalog.add({ ...custom, name: "custom_recipe", display_name: "Custom recipe" } as AgentDetail);
    const names = () =>
      call(sandbox, "GET", "/v1/agents?limit=250").then((r) =>
        (r.body as { name: string }[]).map((a) => a.name),
      );
    expect(await names()).toContain("custom_recipe");
    sandbox.catalog.remove("custom_recipe");
    expect(await names()).not.toContain("custom_recipe");
    expect((await call(sandbox, "GET", "/v1/agents/custom_recipe")).status).toBe(404);
  });

  it("delays the catalog endpoints by catalogDelayMs while other endpoints answer", async () => {
    sandbox.configure({ catalogDelayMs: 300 });
    try {
      const order: string[] = [];
      const slow = call(sandbox, "GET", "/v1/agents").then(() => order.push("catalog"));
      await call(sandbox, "GET", "/v1/batches").then(() => order.push("other"));
      await slow;
      expect(order).toEqual(["other", "catalog"]);
    } finally {
      sandbox.configure({ catalogDelayMs: 0 });
    }
  });
});
