/**
 * A tool's zod schemas are built when first read, not as the registry loads (defineTool in
 * src/tools/tool.ts): a process builds those of the tools it calls. Each build is seen on the
 * channel defineTool publishes it on. The channel is the process's and a worker runs many files:
 * a file before this one may have left a load of the registry in flight (an in-process server's
 * background tool load), whose tools build on the same channel, so only this file's own tool
 * definitions' builds count.
 */
import { subscribe, unsubscribe } from "node:diagnostics_channel";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import ts from "typescript";
import { afterAll, describe, expect, it, vi } from "vitest";

const CHANNEL = "web-data-mcp:tool-schema-built";
const published: Array<{ tool: string; part: string; definition: unknown }> = [];
const onBuild = (message: unknown) => {
  published.push(message as (typeof published)[number]);
};
subscribe(CHANNEL, onBuild);
afterAll(() => unsubscribe(CHANNEL, onBuild));

describe("the tools' schemas", () => {
  it("are not built as the registry loads; reading one builds it once", async () => {
    // Imported here, after the subscription, as an instance of this file's own: an import a file
    // before left in flight settles first (resetting our modules while it runs can hand this
    // file its instance, with schemas built already).
    await vi.dynamicImportSettled();
    vi.resetModules();
    const { ALL_TOOLS } = await import("../../src/tools/registry.js");
    const ours = new Set<unknown>(ALL_TOOLS);
    const builds = () =>
      published.filter((b) => ours.has(b.definition)).map(({ tool, part }) => `${tool} ${part}`);
    expect(ALL_TOOLS.length).toBeGreaterThanOrEqual(20);
    expect(builds(), "tool schemas built as the registry loaded").toEqual([]);

    const serp = ALL_TOOLS.find((t) => t.name === "serp_search");
    const first = serp?.input;
    expect(Object.keys(first ?? {})).toContain("search_engine");
    expect(serp?.input, "the same schema on every read").toBe(first);
    expect(builds()).toEqual(["serp_search input"]);
    expect(Object.keys(serp?.output ?? {}).length).toBeGreaterThan(0);
    expect(builds()).toEqual(["serp_search input", "serp_search output"]);
  });

  it("are not built by any tool module's top level: the shapes tools share are builders too", () => {
    // A schema a module makes as it loads is built in every process that loads the tools, for
    // tools it never calls (308 zod calls in src/tools before, found by this check: 7-14 ms
    // of a first call's CPU, docs/benchmarks.md). Calls of zod (`z.…`) outside any function.
    const dir = join(import.meta.dirname, "../../src/tools");
    const found: string[] = [];
    for (const name of readdirSync(dir).filter((f) => f.endsWith(".ts"))) {
      const source = ts.createSourceFile(
        name,
        readFileSync(join(dir, name), "utf8"),
        ts.ScriptTarget.Latest,
        true,
      );
      const visit = (node: ts.Node): void => {
        if (ts.isFunctionLike(node)) return;
        if (ts.isCallExpression(node)) {
          let callee: ts.Expression = node.expression;
          while (ts.isPropertyAccessExpression(callee) || ts.isCallExpression(callee))
            callee = callee.expression;
          if (ts.isIdentifier(callee) && callee.text === "z") {
            const { line } = source.getLineAndCharacterOfPosition(node.getStart(source));
            found.push(`${name}:${line + 1}`);
          }
        }
        ts.forEachChild(node, visit);
      };
      visit(source);
    }
    expect(found).toEqual([]);
  });
});
