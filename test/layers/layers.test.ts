/**
 * Structure checks over the sources: folders stack one way and the HTTP layer's modules import
 * one way (scripts/layers.mjs), and nothing in
 * src/ or test/ reads or writes an SDK private member or replaces an SDK object's method.
 */
import { readdirSync, readFileSync } from "node:fs";
import { join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
// @ts-expect-error a plain .mjs script without types
import { cyclesIn, httpModuleGraph, importEdges, upwardEdges } from "../../scripts/layers.mjs";

const ROOT = fileURLToPath(new URL("../..", import.meta.url));

interface Edge {
  from: string;
  to: string;
  file: string;
  spec: string;
}

function* sources(dir: string): Generator<string> {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) yield* sources(path);
    else if (/\.(ts|mjs)$/.test(entry.name)) yield path;
  }
}

/** Every line of src/ and test/ matching `pattern`, as `file:line: text`. */
function grep(pattern: RegExp): string[] {
  const hits: string[] = [];
  for (const dir of ["src", "test"]) {
    for (const file of sources(join(ROOT, dir))) {
      if (file.endsWith("layers.test.ts")) continue;
      readFileSync(file, "utf8")
        .split("\n")
        .forEach((line, i) => {
          if (pattern.test(line)) hits.push(`${relative(ROOT, file)}:${i + 1}: ${line.trim()}`);
        });
    }
  }
  return hits;
}

describe("layering", () => {
  it("has folder-level imports, every one pointing down the stack", () => {
    expect(importEdges().length).toBeGreaterThan(10);
    expect(upwardEdges()).toEqual([]);
  });

  it("api imports nothing from config, telemetry nothing from tools: such an import is upward", () => {
    const edges = importEdges();
    expect(edges.filter((e: Edge) => e.from === "api" && e.to === "config")).toEqual([]);
    expect(edges.filter((e: Edge) => e.from === "telemetry" && e.to === "tools")).toEqual([]);
    const drawn = [
      { from: "api", to: "config", file: "api/client.ts", spec: "../config.js" },
      { from: "telemetry", to: "tools", file: "telemetry/labels.ts", spec: "../tools/registry.js" },
    ];
    expect(upwardEdges(drawn)).toEqual(drawn);
  });
});

describe("the HTTP layer's modules", () => {
  it("import one way: no cycle among server/http.ts and server/http/", () => {
    const graph = httpModuleGraph();
    expect(graph.get("http")?.has("http/mcp")).toBe(true);
    expect(cyclesIn(graph)).toEqual([]);
  });

  it("a cycle is found and named by its path", () => {
    const graph = new Map([
      ["http/a", new Set(["http/b"])],
      ["http/b", new Set(["http/c"])],
      ["http/c", new Set(["http/a"])],
      ["http/d", new Set(["http/a"])],
    ]);
    expect(cyclesIn(graph)).toEqual([["http/a", "http/b", "http/c", "http/a"]]);
  });
});

describe("api/ speaks HTTP and API terms only", () => {
  it("names no tool and no environment variable in its code (the tool layer gives that advice)", async () => {
    const { ALL_TOOLS } = await import("../../src/tools/registry.js");
    // One-word tool names (cancel, research) are also the API's own words (a cancel route, a use case).
    const names = ALL_TOOLS.map((t) => t.name)
      .filter((n) => n.includes("_"))
      .join("|");
    const advice = new RegExp(`\\b(${names}|WEBDATA_[A-Z_]+)\\b`);
    const hits = grep(advice).filter((h) => h.startsWith("src/api/") && !/:\s*(\/\/|\*|\/\*)/.test(h));
    expect(hits).toEqual([]);
  });
});

describe("configuration is loaded once", () => {
  it("reads process.env only in src/config.ts (the CLI's entries take it from processEnvironment())", () => {
    const readers = grep(/process\.env\b/).filter((h) => h.startsWith("src/"));
    const elsewhere = readers.filter((h) => !h.startsWith("src/config.ts:"));
    expect(readers.length).toBeGreaterThan(0);
    expect(elsewhere).toEqual([]);
  });
});

describe("the SDK through its public API only", () => {
  it("reads or writes no underscore (private) member", () => {
    // `_meta` is a protocol field, not an SDK member.
    expect(grep(/\._(?!meta\b)[A-Za-z]\w*/)).toEqual([]);
    expect(grep(/as unknown as \{\s*_/)).toEqual([]);
  });

  it("replaces no SDK object's method", () => {
    const patched = grep(
      /\b(?!this\b)\w+\.(send|remove|sendToolListChanged|setRequestHandler|request|notification|connect|close)\s*=(?!=)/,
    );
    // Wrappers are a `DelegatingTransport` (src/delegating-transport.ts), with no exemption.
    expect(patched).toEqual([]);
  });
});

describe("a call's scope travels as a parameter (issue 31)", () => {
  it("uses no AsyncLocalStorage outside OpenTelemetry's context manager", () => {
    const stores = grep(/AsyncLocalStorage/).filter((h) => h.startsWith("src/"));
    expect(stores.filter((h) => !h.startsWith("src/telemetry/otel.ts:"))).toEqual([]);
  });

  it("writes no SDK transport's session id and puts no principal in AuthInfo.extra", () => {
    expect(grep(/transport\.sessionId\s*=(?!=)/)).toEqual([]);
    expect(grep(/extra\??\.principal\b|extra:\s*\{[^}]*\b(principal|via)\b/)).toEqual([]);
  });
});
