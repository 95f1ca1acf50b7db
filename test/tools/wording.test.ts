/** Result wording a person reads: item counts, plurals, no blank first lines. */
import { describe, expect, it } from "vitest";
import { plural } from "../../src/tools/result.js";
import { inProcessAgainst } from "../helpers/in-process.js";
import { call, type McpSession, serverForFile, textOf } from "../helpers/mcp.js";

let server: McpSession;

serverForFile(
  (started) => {
    ({ server } = started);
  },
  {},
  inProcessAgainst,
);

describe("result wording", () => {
  it("plural: singular for one only", () => {
    expect([0, 1, 2].map((n) => plural(n, "page"))).toEqual(["0 pages", "1 page", "2 pages"]);
  });

  it("run_agent(one product page): 1 page, 1 item — its image URLs are not items", async () => {
    const r = await call(server, "run_agent", {
      agent: "ecommerce_product_page",
      params: { url: "https://shop.example.com/p/123" },
    });
    expect(r.isError, textOf(r)).toBeFalsy();
    expect(textOf(r).split("\n")[0]).toBe("Agent ecommerce_product_page: 1 page, 1 item.");
  });

  it("run_agent(a listing): one item per record of its list", async () => {
    const r = await call(server, "run_agent", {
      agent: "ecommerce_search_listing",
      params: { query: "tent" },
    });
    expect(r.isError, textOf(r)).toBeFalsy();
    const parsing = r.structuredContent.parsing as Record<string, unknown>;
    const list = Object.values(parsing).find((v) => Array.isArray(v)) as unknown[];
    expect(textOf(r).split("\n")[0]).toBe(
      `Agent ecommerce_search_listing: 1 page, ${plural(list.length, "item")}.`,
    );
  });

  it("check_domain_health: 1 bad window, not 1 bad windows", async () => {
    // site20.example.com: degraded or down for exactly the latest window in the sandbox's data.
    const r = await call(server, "check_domain_health", { domains: ["site20.example.com"] });
    expect(textOf(r)).toContain(", 1 bad window in a row");
  });

  it("extract_page: no blank or space-only line right after the heading", async () => {
    const r = await call(server, "extract_page", { url: "https://example.com/" });
    const lines = textOf(r).split("\n");
    expect(lines[1]).toBe("");
    expect(lines[2].trim()).not.toBe("");
  });
});
