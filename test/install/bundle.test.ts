/**
 * The MCP Bundle for Claude Desktop: manifest.json is valid for mcpb and agrees with the registry,
 * `npm run bundle`'s packer produces a small .mcpb, and the unpacked bundle — with no
 * node_modules anywhere above it — runs: the CLI lists the tools, an MCP client gets initialize +
 * tools/list over stdio, and the server launched exactly as the manifest's mcp_config says (the
 * user's key and base URL substituted) answers a tool call against a sandbox.
 */
import { existsSync } from "node:fs";
import { readdir, stat } from "node:fs/promises";
import { join, relative } from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { getDefaultEnvironment, StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { manifestTools } from "../../scripts/registry-docs.mjs";
import type { Sandbox } from "../../src/sandbox/index.js";
import { ALL_TOOLS } from "../../src/tools/registry.js";
import { DEFAULT_TOOLSETS } from "../../src/toolsets.js";

/** The bundle starts with the default toolsets: the manifest lists every tool, a default start serves these. */
const defaultTools = (tools: readonly { name: string }[]) =>
  tools.filter((t) =>
    ALL_TOOLS.some((d) => d.name === t.name && DEFAULT_TOOLSETS.includes(d.toolset) && !d.optIn),
  );

import { assertBuilt, startTestSandbox, TEST_KEY } from "../helpers/mcp.js";
import {
  at,
  BUILD_FILES,
  makeTemp,
  ok,
  PACKAGE_DOCS,
  readJson,
  removeTemp,
  run,
  runNode,
} from "./helpers.js";

const MCPB_CLI = at("node_modules/@anthropic-ai/mcpb/dist/cli/cli.js");

interface Manifest {
  manifest_version: string;
  name: string;
  version: string;
  icon?: string;
  server: {
    type: string;
    entry_point: string;
    mcp_config: { command: string; args: string[]; env: Record<string, string> };
  };
  tools: Array<{ name: string; description: string }>;
  tools_generated?: boolean;
  compatibility: { platforms: string[]; runtimes: { node: string } };
  user_config: Record<string, { type: string; required?: boolean; sensitive?: boolean; default?: unknown }>;
}

/** The placeholder a manifest uses for a user setting. */
const setting = (key: string) => `\${user_config.${key}}`;

/** What a host does with mcp_config: `${__dirname}` and `${user_config.X}` substituted. */
function launchConfig(manifest: Manifest, dir: string, values: Record<string, unknown>) {
  const fill = (s: string) =>
    s.replaceAll(`\${__dirname}`, dir).replace(/\$\{user_config\.([A-Za-z0-9_]+)\}/g, (_, key: string) => {
      const value = values[key] ?? manifest.user_config[key]?.default;
      if (value === undefined) throw new Error(`no value for user_config.${key}`);
      return String(value);
    });
  const { command, args, env } = manifest.server.mcp_config;
  return {
    command,
    args: args.map(fill),
    env: Object.fromEntries(Object.entries(env).map(([k, v]) => [k, fill(v)])),
  };
}

async function listFiles(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true });
  return entries
    .filter((e) => e.isFile())
    .map((e) => relative(dir, join(e.parentPath, e.name)).split("\\").join("/"))
    .sort();
}

let manifest: Manifest;
let temp: string | undefined;
let unpacked: string;
let bundleFile: string;
let sandbox: Sandbox | undefined;

beforeAll(async () => {
  assertBuilt();
  manifest = await readJson(at("manifest.json"));
  temp = await makeTemp("mcpb");
  bundleFile = join(temp, "web-data-mcp.mcpb");
  ok(await runNode([at("scripts/pack-bundle.mjs"), "--out", bundleFile]), "pack-bundle");
  unpacked = join(temp, "unpacked");
  // Unpack as a host would: a plain zip extraction (unzip when installed, else mcpb's own).
  const unzip = await run("unzip", ["-q", bundleFile, "-d", unpacked]).catch(() => undefined);
  if (unzip?.status !== 0) ok(await runNode([MCPB_CLI, "unpack", bundleFile, unpacked]), "mcpb unpack");
}, 60_000);

afterAll(async () => {
  await sandbox?.close();
  await removeTemp(temp);
});

describe("manifest.json", () => {
  it("passes mcpb validate", async () => {
    const r = await runNode([MCPB_CLI, "validate", at("manifest.json")]);
    expect(r.stdout + r.stderr).toContain("Manifest schema validation passes");
    expect(r.status).toBe(0);
  });

  it("lists every registry tool and carries the package version", async () => {
    expect(manifest.manifest_version).toBe("0.3");
    expect(manifest.tools).toEqual(manifestTools(ALL_TOOLS));
    expect(manifest.tools_generated).toBe(true); // agent_<name> tools come from WEBDATA_AGENT_TOOLS
    expect(manifest.version).toBe((await readJson(at("package.json"))).version);
  });

  it("starts the built entry with node and hands the user's settings over as environment", () => {
    expect(manifest.server.type).toBe("node");
    expect(manifest.server.entry_point).toBe("dist/cli.cjs");
    expect(manifest.server.mcp_config.command).toBe("node");
    expect(manifest.server.mcp_config.args).toEqual([`\${__dirname}/dist/cli.cjs`]);
    const env = manifest.server.mcp_config.env;
    expect(env.WEBDATA_API_KEY).toBe(setting("api_key"));
    expect(env.WEBDATA_BASE_URL).toBe(setting("base_url"));
    expect(manifest.user_config.api_key).toMatchObject({ type: "string", sensitive: true, required: true });
    expect(manifest.user_config.base_url).toMatchObject({ type: "string", required: true });
    // Every setting is used, every reference is declared, and every optional one has a default
    // (hosts substitute it, so the server never sees a literal ${user_config.…}).
    const used = Object.values(env).flatMap((v) =>
      [...v.matchAll(/\$\{user_config\.(\w+)\}/g)].map((m) => m[1]),
    );
    expect(new Set(used)).toEqual(new Set(Object.keys(manifest.user_config)));
    for (const [key, option] of Object.entries(manifest.user_config)) {
      if (!option.required) expect(option.default, `user_config.${key}.default`).toBeDefined();
    }
    expect([...manifest.compatibility.platforms].sort()).toEqual(["darwin", "linux", "win32"]);
    expect(manifest.compatibility.runtimes.node).toBe(">=20.0.0");
  });

  it("has a 512×512 PNG icon", async () => {
    const { PNG } = await import("pngjs");
    const { readFileSync } = await import("node:fs");
    const png = PNG.sync.read(readFileSync(at(manifest.icon ?? "icon.png")));
    expect([png.width, png.height]).toEqual([512, 512]);
  });
});

describe("the .mcpb bundle", () => {
  it("holds only the manifest, icon, docs and the self-contained build, and stays small", async () => {
    const files = await listFiles(unpacked);
    expect(files).toEqual(
      expect.arrayContaining(["manifest.json", "icon.png", "package.json", ...BUILD_FILES]),
    );
    const other = files.filter(
      (f) => !["manifest.json", "icon.png", ...PACKAGE_DOCS, ...BUILD_FILES].includes(f),
    );
    expect(other.length).toBeGreaterThan(0);
    for (const f of other) expect(f).toMatch(/^dist\/chunks\/[^/]+\.js$/);
    expect((await stat(bundleFile)).size).toBeLessThan(3 * 1024 * 1024);
    expect(await readJson(join(unpacked, "manifest.json"))).toEqual(manifest);
    expect((await readJson(join(unpacked, "package.json"))).type).toBe("module");
  });

  it("runs from the unpacked folder with no node_modules: tools --sandbox and --version", async () => {
    expect(existsSync(join(unpacked, "node_modules"))).toBe(false);
    const tools = ok(
      await runNode([join(unpacked, "dist/cli.cjs"), "tools", "--sandbox"], { cwd: unpacked }),
      "tools",
    );
    for (const t of defaultTools(manifest.tools))
      expect(tools.stdout).toMatch(new RegExp(`^${t.name}\\s`, "m"));
    const version = ok(
      await runNode([join(unpacked, "dist/cli.cjs"), "--version"], { cwd: unpacked }),
      "--version",
    );
    expect(version.stdout.trim()).toBe(manifest.version);
  });

  it("serves MCP over stdio from the unpacked folder: initialize and tools/list (--sandbox)", async () => {
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [join(unpacked, "dist/cli.cjs"), "--sandbox"],
      cwd: unpacked,
      env: getDefaultEnvironment(),
      stderr: "pipe",
    });
    const client = new Client({ name: "install-test", version: "0.0.0" });
    try {
      await client.connect(transport);
      expect(client.getServerVersion()).toMatchObject({ name: "web-data", version: manifest.version });
      const { tools } = await client.listTools();
      const names = tools.map((t) => t.name);
      for (const t of defaultTools(manifest.tools)) expect(names).toContain(t.name);
      for (const t of tools) expect(t.inputSchema.type).toBe("object");
    } finally {
      await client.close();
    }
  });

  it("launched as the manifest's mcp_config says, with the user's key and base URL, calls the API", async () => {
    sandbox = await startTestSandbox();
    const launch = launchConfig(manifest, unpacked, { api_key: TEST_KEY, base_url: sandbox.url });
    expect(launch.command).toBe("node"); // the host resolves it; the test uses this Node
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: launch.args,
      env: { ...getDefaultEnvironment(), ...launch.env },
      stderr: "pipe",
    });
    let stderr = "";
    transport.stderr?.on("data", (c: Buffer) => {
      stderr += c.toString("utf8");
    });
    const client = new Client({ name: "install-test", version: "0.0.0" });
    try {
      await client.connect(transport);
      // With the default settings the bundle exposes exactly the tools its manifest lists.
      const { tools } = await client.listTools();
      expect(tools.map((t) => t.name).sort()).toEqual(manifest.tools.map((t) => t.name).sort());
      const result: any = await client.callTool({
        name: "serp_search",
        arguments: { search_engine: "engine1_search", query: "hiking boots", num_results: 3 },
      });
      expect(result.isError ?? false).toBe(false);
      expect(result.structuredContent.results.length).toBeGreaterThan(0);
      expect(result.structuredContent.results[0].url).toContain(sandbox.url);
      expect(sandbox.requests.some((r) => r.path === "/v2/serp" && r.auth === "bearer")).toBe(true);
      expect(stderr).not.toContain(TEST_KEY);
    } finally {
      await client.close();
    }
  });
});
