/** The generation router: the order in which a call tries generation 2 and 1, and what it remembers. */
import { describe, expect, it } from "vitest";
import {
  GenerationMemories,
  GenerationMemory,
  GenerationRouter,
  MAX_REMEMBERED_IDS,
} from "../../src/api/generations.js";
import { agentToTemplate, ROUTES, routeLabel } from "../../src/api/routes.js";
import { ConfigError, loadConfig, parseGeneration } from "../../src/config.js";

const both = { 1: {}, 2: {} };
const read = { 1: {}, 2: {}, by: "id" };
function router(setting: "auto" | 1 | 2 = "auto") {
  const lines: string[] = [];
  const r = new GenerationRouter(setting, new GenerationMemory(), (m) => lines.push(m));
  return { r, lines };
}

describe("WEBDATA_API_GENERATION", () => {
  it.each([
    [undefined, "auto"],
    ["auto", "auto"],
    ["2", 2],
    ["v1", 1],
  ] as const)("reads %s as %s", (raw, setting) => {
    expect(parseGeneration(raw)).toBe(setting);
  });

  it("refuses anything else, saying what it takes", () => {
    const env = { WEBDATA_API_KEY: "k", WEBDATA_BASE_URL: "https://h", WEBDATA_API_GENERATION: "3" };
    expect(() => loadConfig(env)).toThrow(ConfigError);
    expect(() => loadConfig(env)).toThrow(/WEBDATA_API_GENERATION must be auto .*, 2 or 1, got "3"/);
    expect(loadConfig({ ...env, WEBDATA_API_GENERATION: " " }).apiGeneration).toBe("auto");
  });
});

describe("GenerationRouter", () => {
  it("tries generation 2 then 1 in auto, and only the configured one otherwise", () => {
    expect(router("auto").r.order("x", both)).toEqual([2, 1]);
    expect(router(2).r.order("x", both)).toEqual([2]);
    expect(router(1).r.order("x", both)).toEqual([1]);
  });

  it("uses the only route a capability has, whatever the setting", () => {
    expect(router(1).r.order("x", { 2: {} })).toEqual([2]);
    expect(router(2).r.order("x", { 1: {} })).toEqual([1]);
  });

  it("falls back on 404 and 405 only, in auto only, and only to a next generation", () => {
    const { r } = router();
    expect(r.mayFallBack(404, 0, [2, 1])).toBe(true);
    expect(r.mayFallBack(405, 0, [2, 1])).toBe(true);
    expect(r.mayFallBack(400, 0, [2, 1])).toBe(false);
    expect(r.mayFallBack(500, 0, [2, 1])).toBe(false);
    expect(r.mayFallBack(404, 1, [2, 1])).toBe(false);
    expect(router(2).r.mayFallBack(404, 0, [2, 1])).toBe(false);
  });

  it("marks a submission route missing on generation 2 once, with one log line", () => {
    const { r, lines } = router();
    r.answered("extract", both, 1, undefined, true);
    r.answered("extract", both, 1, undefined, true);
    expect(r.order("extract", both)).toEqual([1]);
    expect(r.order("crawl", both)).toEqual([2, 1]);
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/no generation-2 route for extract/);
  });

  it("reads an id on the generation that made it", () => {
    const { r } = router();
    r.remember(["task-1", undefined, ""], 1);
    r.answered("extractAsync", both, 2, "task-2", false);
    expect(r.order("getTask", read, "task-1")).toEqual([1]);
    expect(r.order("getTask", read, "task-2")).toEqual([2]);
    expect(r.generationOf("task-1")).toBe(1);
  });

  it("reads an unknown id (a handle from before a restart) on both, preferring what worked", () => {
    const { r, lines } = router();
    expect(r.order("getTask", read, "old")).toEqual([2, 1]);
    r.answered("getTask", read, 1, "old", true);
    expect(r.order("getTask", read, "old")).toEqual([1]);
    expect(r.order("getTask", read, "older")).toEqual([1, 2]);
    expect(lines).toEqual([]);
  });

  it("lets concurrent calls of a route wait for the first one's probe of generation 2", async () => {
    const { r } = router();
    let release!: () => void;
    const orders: number[][] = [];
    const first = r.run("map", both, undefined, async (order) => {
      orders.push(order);
      await new Promise<void>((resolve) => {
        release = resolve;
      });
      r.answered("map", both, 1, undefined, true);
    });
    const second = r.run("map", both, undefined, async (order) => {
      orders.push(order);
    });
    await Promise.resolve();
    expect(orders).toEqual([[2, 1]]);
    release();
    await Promise.all([first, second]);
    expect(orders).toEqual([[2, 1], [1]]);
  });

  it("keeps its id memory bounded, forgetting the oldest first", () => {
    const { r } = router();
    for (let i = 0; i <= MAX_REMEMBERED_IDS; i++) r.remember([`id-${i}`], 1);
    expect(r.generationOf("id-0")).toBeUndefined();
    expect(r.generationOf(`id-${MAX_REMEMBERED_IDS}`)).toBe(1);
  });

  it("shares what it learnt among clients of the same base URL and runtime, not another runtime's", () => {
    const lines: string[] = [];
    const memories = new GenerationMemories();
    const a = new GenerationRouter("auto", memories.for("http://shared.invalid/"), (m) => lines.push(m));
    const b = new GenerationRouter("auto", memories.for("http://shared.invalid/"), (m) => lines.push(m));
    a.answered("map", both, 1, undefined, true);
    b.answered("map", both, 1, undefined, true);
    expect(b.order("map", both)).toEqual([1]);
    expect(lines).toHaveLength(1);
    const elsewhere = new GenerationRouter(
      "auto",
      new GenerationMemories().for("http://shared.invalid/"),
      () => {},
    );
    expect(elsewhere.order("map", both)).toEqual([2, 1]);
  });
});

describe("route table", () => {
  it("renames agent to template for generation 2 and leaves the rest", () => {
    expect(agentToTemplate({ agent: "a", params: { q: 1 } })).toEqual({ template: "a", params: { q: 1 } });
    expect(agentToTemplate({ template: "t" })).toEqual({ template: "t" });
  });

  it("labels a capability's routes, generation 2 first", () => {
    expect(routeLabel("serp")).toBe("POST /v2/serp");
    expect(Object.keys(ROUTES).length).toBeGreaterThan(20);
  });
});
