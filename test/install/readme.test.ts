/**
 * The README and docs/ cannot drift from the code: the README's tools table is the registry's,
 * every environment variable the code reads is documented (docs/configuration.md), the set-up
 * commands and npm scripts they name exist, every JSON config the README shows parses, every
 * relative link resolves inside the repository, and no install command is promised that the npm
 * registry cannot serve yet.
 */
import { existsSync } from "node:fs";
import { readdir, readFile } from "node:fs/promises";
import { dirname, join, relative } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { tableIn, toolsTable } from "../../scripts/registry-docs.mjs";
import { ALL_TOOLS } from "../../src/tools/registry.js";
import { TOOLSETS } from "../../src/toolsets.js";
import { at, readJson } from "./helpers.js";

/** The README, AGENTS.md, deploy/README.md and every page under docs/, by repository path. */
const docs = new Map<string, string>();
let readme: string;
beforeAll(async () => {
  const pages = (await readdir(at("docs"))).filter((f) => f.endsWith(".md")).map((f) => `docs/${f}`);
  for (const path of ["README.md", "AGENTS.md", "deploy/README.md", ...pages])
    docs.set(path, await readFile(at(path), "utf8"));
  readme = docs.get("README.md") ?? "";
});

/** Every `WEBDATA_*` name the sources read: quoted string names and `env.NAME` accesses (not comments). */
async function variablesInCode(): Promise<Set<string>> {
  const names = new Set<string>();
  const files = (await readdir(at("src"), { recursive: true })).filter((f) => f.endsWith(".ts"));
  for (const file of files) {
    const text = await readFile(join(at("src"), file), "utf8");
    for (const m of text.matchAll(/env\.(WEBDATA_\w+)|["'](WEBDATA_[A-Z0-9_]+)["']/g))
      names.add(m[1] ?? m[2]);
  }
  return names;
}

/** GitHub's anchor for a heading: lower case, punctuation dropped, each space a hyphen. */
const anchor = (heading: string) =>
  heading
    .toLowerCase()
    .replace(/[^\p{L}\p{N} _-]/gu, "")
    .replace(/ /g, "-");

/** The anchors of a Markdown page's headings (outside code blocks). */
function anchorsOf(text: string): Set<string> {
  const prose = text.replace(/```[\s\S]*?```/g, "");
  return new Set([...prose.matchAll(/^#{1,6} (.+)$/gm)].map((m) => anchor(m[1].trim())));
}

describe("README.md", () => {
  it("starts with the two set-up commands", () => {
    const demo = readme.indexOf("npm ci && npm run demo");
    const test = readme.indexOf("npm ci && npm test");
    expect(demo).toBeGreaterThan(-1);
    expect(test).toBeGreaterThan(-1);
    expect(Math.max(demo, test)).toBeLessThan(readme.indexOf("## Contents"));
  });

  it("stays short enough to read top to bottom (reference text goes to docs/)", () => {
    expect(readme.split("\n").length).toBeLessThanOrEqual(300);
  });

  it("has the registry's tools table (npm run generate regenerates it)", () => {
    expect(tableIn(readme)).toBe(toolsTable(ALL_TOOLS));
    for (const tool of ALL_TOOLS) expect(TOOLSETS).toContain(tool.toolset);
  });

  it("documents every environment variable the code reads", async () => {
    const names = await variablesInCode();
    expect(names).toContain("WEBDATA_API_KEY");
    expect(names.size).toBeGreaterThanOrEqual(9);
    const configuration = docs.get("docs/configuration.md") ?? "";
    const section = configuration.slice(
      configuration.indexOf("## Environment variables"),
      configuration.indexOf("## The sandbox"),
    );
    for (const name of names) expect(section, name).toContain(`\`${name}\``);
  });

  it("names only npm scripts that exist (README, AGENTS.md, docs/)", async () => {
    const { scripts } = await readJson(at("package.json"));
    for (const [path, text] of docs) {
      const named = new Set([...text.matchAll(/npm run ([a-z](?:[\w:-]*[\w-])?)/g)].map((m) => m[1]));
      for (const name of named) expect(Object.keys(scripts), `${path}: npm run ${name}`).toContain(name);
    }
    const inReadme = new Set([...readme.matchAll(/npm run ([a-z](?:[\w:-]*[\w-])?)/g)].map((m) => m[1]));
    expect(inReadme.size).toBeGreaterThanOrEqual(5);
  });

  it("links only to files and headings that exist inside the repository", () => {
    let checked = 0;
    for (const [path, text] of docs) {
      for (const m of text.matchAll(/\]\(([^)\s]+)\)/g)) {
        const [target, fragment] = m[1].split("#");
        if (/^[a-z]+:/i.test(target)) continue;
        const resolved = target === "" ? at(path) : join(dirname(at(path)), target);
        expect(relative(at(), resolved).startsWith(".."), `${path} links outside: ${m[1]}`).toBe(false);
        expect(existsSync(resolved), `${path} links to a missing ${m[1]}`).toBe(true);
        if (fragment) {
          const page = docs.get(relative(at(), resolved)) ?? "";
          expect([...anchorsOf(page)], `${path} links to a missing heading: ${m[1]}`).toContain(fragment);
        }
        checked++;
      }
    }
    expect(checked).toBeGreaterThanOrEqual(10);
    // At the repository root, a path up (`../shared/…`, even unlinked) names what a clone lacks.
    for (const path of ["README.md", "AGENTS.md"]) expect(docs.get(path), path).not.toContain("../");
  });

  it("promises npx -y web-data-mcp only as what will work once the package is published", () => {
    for (const [path, text] of docs) {
      for (const m of text.matchAll(/npx -y web-data-mcp/g)) {
        const around = text.slice(Math.max(0, m.index - 300), m.index + 300);
        expect(around, `${path}: npx -y web-data-mcp`).toMatch(/published/);
      }
    }
  });

  it("shows the client configurations as valid JSON with the server's command", () => {
    const blocks = [...readme.matchAll(/```json\n([\s\S]*?)```/g)].map((m) => m[1]);
    expect(blocks.length).toBeGreaterThanOrEqual(2);
    for (const block of blocks) {
      const config = JSON.parse(block);
      const servers = config.mcpServers ?? config.servers;
      expect(servers["web-data"]).toMatchObject({ command: "web-data-mcp", args: [] });
    }
    expect(readme).toContain(
      "claude mcp add web-data -e WEBDATA_API_KEY=your-api-key -e WEBDATA_BASE_URL=https://api.example.com -- web-data-mcp",
    );
  });

  it("names every devDependency in the table of which library does what (docs/libraries.md)", async () => {
    const { devDependencies } = await readJson(at("package.json"));
    const table = docs.get("docs/libraries.md") ?? "";
    const named = Object.keys(devDependencies).filter((d) => !d.startsWith("@types/"));
    expect(named.length).toBeGreaterThanOrEqual(20);
    for (const name of named) {
      const shown = name.startsWith("@opentelemetry/") ? "`@opentelemetry/*`" : `\`${name}\``;
      expect(table, name).toContain(shown);
    }
  });

  it("covers every command of the public contract", () => {
    for (const command of [
      "`web-data-mcp`",
      "`web-data-mcp --http",
      "`web-data-mcp --sandbox`",
      "`web-data-mcp sandbox",
      "`web-data-mcp tools",
      "`web-data-mcp call TOOL",
    ]) {
      expect(readme).toContain(command);
    }
  });
});
