/**
 * `npm run demo` (the README's first command) runs `node dist/demo.js` after a build when the sources
 * changed (scripts/build-if-changed.mjs): a real MCP
 * client drives the server on the sandbox through search → read → agent → crawl and exits 0.
 */
import { existsSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { assertBuilt } from "../helpers/mcp.js";
import { at, ok, readJson, runNode } from "./helpers.js";

describe("npm run demo", () => {
  it("is wired to the built demo", async () => {
    const { scripts } = await readJson(at("package.json"));
    expect(scripts.demo).toBe("node scripts/build-if-changed.mjs && node dist/demo.js");
  });

  it("builds only when the sources changed: right after npm run build it does not build again", async () => {
    assertBuilt();
    const r = await runNode([at("scripts/build-if-changed.mjs"), "--check"]);
    expect(r.stderr).toContain("build: up to date");
    expect(r.status).toBe(0);
  });

  it("walks search → extract → list_agents + run_agent → crawl_site on the sandbox, with no key", async () => {
    assertBuilt();
    expect(existsSync(at("dist/demo.js"))).toBe(true);
    const r = ok(await runNode([at("dist/demo.js")]), "demo");
    const out = r.stdout;
    // The steps, in order, each showing what the agent saw.
    const calls = ["→ serp_search", "→ extract_page", "→ list_agents", "→ run_agent", "→ crawl_site"];
    const positions = calls.map((c) => out.indexOf(c));
    for (const [i, p] of positions.entries()) expect(p, calls[i]).toBeGreaterThan(-1);
    expect([...positions].sort((a, b) => a - b)).toEqual(positions);
    // The demo's own summary lines, built from each tool's structuredContent.
    expect(out).toMatch(/Connected to MCP server "web-data"/);
    expect(out).toMatch(/✓ 5 results; the top one: http:\/\/127\.0\.0\.1:\d+\/site\//);
    expect(out).toMatch(/✓ ecommerce_product_page returned structured data: .*\btitle\b.*\bprice\b/);
    expect(out).toMatch(/✓ 5 pages crawled:/);
    expect(out.match(/^ {4}• (?:success|completed) +200 http:\/\/127\.0\.0\.1:\d+\/site\//gm)).toHaveLength(
      5,
    );
    expect(out).toMatch(/⋯ progress \d+\/5/); // progress notifications during the crawl
    expect(out).toContain("Done in");
    expect(out).not.toContain("Demo failed");
  });
});
