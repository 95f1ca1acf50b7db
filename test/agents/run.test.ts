import { describe, expect, it } from "vitest";
import { compileAgent } from "../../src/agents/compile.js";
import { mergePages, pageParams } from "../../src/tools/agent-run.js";
import { ToolError } from "../../src/tools/errors.js";
import { detail, prop } from "./fixtures.js";

const resolved = (props: Parameters<typeof detail>[1]) => {
  const d = detail("paged", props);
  return { detail: d, compiled: compileAgent(d) };
};

describe("pageParams", () => {
  const agent = resolved([
    prop({ name: "q", type: "string", required: true }),
    prop({ name: "page", type: "integer", rules: ["min:1", "max:3"], default: 1, is_pagination_param: true }),
  ]);

  it("increments the pagination field from the given value, else from its default", () => {
    expect(pageParams(agent, { q: "a", page: 2 }, 2)).toEqual([
      { q: "a", page: 2 },
      { q: "a", page: 3 },
    ]);
    expect(pageParams(agent, { q: "a" }, 3).map((p) => p.page)).toEqual([1, 2, 3]);
  });

  it("checks every page's params against the rules (max:3 here)", () => {
    expect(() => pageParams(agent, { q: "a", page: 3 }, 2)).toThrow(/"page" must be <= 3/);
  });

  it("keeps a string-typed page a string", () => {
    const s = resolved([prop({ name: "p", type: "string", is_pagination_param: true })]);
    expect(pageParams(s, { p: "4" }, 2).map((x) => x.p)).toEqual(["4", "5"]);
  });

  it("refuses pages > 1 for an agent without a pagination param", () => {
    const none = resolved([prop({ name: "q", type: "string" })]);
    expect(() => pageParams(none, {}, 2)).toThrow(ToolError);
    expect(pageParams(none, { q: "x" }, 1)).toEqual([{ q: "x" }]);
  });
});

describe("mergePages", () => {
  it("concatenates arrays in page order, keeps the first page's other members, counts items per page", () => {
    const merged = mergePages([
      { page: 1, task_id: "t1", parsing: { total: 9, results: [1, 2], more: [] } },
      { page: 2, task_id: "t2", parsing: { total: 9, results: [3], extra: "x" } },
    ]);
    expect(merged.parsing).toEqual({ total: 9, results: [1, 2, 3], more: [], extra: "x" });
    expect(merged.provenance).toEqual([
      { page: 1, task_id: "t1", items: 2 },
      { page: 2, task_id: "t2", items: 1 },
    ]);
  });

  it("concatenates top-level arrays, and leaves a single page as it is", () => {
    expect(
      mergePages([
        { page: 1, parsing: [1] },
        { page: 2, parsing: [2, 3] },
      ]).parsing,
    ).toEqual([1, 2, 3]);
    const one = { a: [1], b: "x" };
    expect(mergePages([{ page: 1, parsing: one }]).parsing).toBe(one);
  });
});
