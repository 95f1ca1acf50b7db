/**
 * The README cannot drift from the code: its tools table is the registry's, every environment
 * variable the code reads is documented, the set-up commands and npm scripts it names exist, and
 * every JSON config it shows parses.
 */
import { readdir, readFile } from "node:fs/promises";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { tableIn, toolsTable } from "../../scripts/registry-docs.mjs";
import { ALL_TOOLS } from "../../src/tools/registry.js";
import { TOOLSETS } from "../../src/toolsets.js";
import { at, readJson } from "./helpers.js";

let readme: string;
beforeAll(async () => {
  readme = await readFile(at("README.md"), "utf8");
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

describe("README.md", () => {
  it("starts with the two set-up commands", () => {
    const demo = readme.indexOf("npm ci && npm run demo");
    const test = readme.indexOf("npm ci && npm test");
    expect(demo).toBeGreaterThan(-1);
    expect(test).toBeGreaterThan(-1);
    expect(Math.max(demo, test)).toBeLessThan(readme.indexOf("## Use it from your client"));
  });

  it("has the registry's tools table (npm run docs regenerates it)", () => {
    expect(tableIn(readme)).toBe(toolsTable(ALL_TOOLS));
    for (const tool of ALL_TOOLS) expect(TOOLSETS).toContain(tool.toolset);
  });

  it("documents every environment variable the code reads", async () => {
    const names = await variablesInCode();
    expect(names).toContain("WEBDATA_API_KEY");
    expect(names.size).toBeGreaterThanOrEqual(9);
    const section = readme.slice(
      readme.indexOf("## Environment variables"),
      readme.indexOf("## The sandbox"),
    );
    for (const name of names) expect(section, name).toContain(`\`${name}\``);
  });

  it("names only npm scripts that exist", async () => {
    const { scripts } = await readJson(at("package.json"));
    const named = new Set([...readme.matchAll(/npm run ([a-z][\w:-]*)/g)].map((m) => m[1]));
    expect(named.size).toBeGreaterThanOrEqual(5);
    for (const name of named) expect(Object.keys(scripts), `npm run ${name}`).toContain(name);
  });

  it("shows the client configurations as valid JSON with the server's command", () => {
    const blocks = [...readme.matchAll(/```json\n([\s\S]*?)```/g)].map((m) => m[1]);
    expect(blocks.length).toBeGreaterThanOrEqual(3);
    for (const block of blocks) {
      const config = JSON.parse(block);
      const servers = config.mcpServers ?? config.servers;
      expect(servers["web-data"]).toMatchObject({ command: "npx", args: ["-y", "web-data-mcp"] });
    }
    expect(readme).toContain(
      "claude mcp add web-data -e WEBDATA_API_KEY=your-api-key -e WEBDATA_BASE_URL=https://api.example.com -- npx -y web-data-mcp",
    );
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
