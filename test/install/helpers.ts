/**
 * Helpers for the install tests: the repository root, temp folders that are always removed, and
 * child processes run to completion without blocking the test's event loop (a sandbox may live in it).
 */
import { existsSync } from "node:fs";
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { type ProcessRun, runProcess } from "../helpers/process.js";

export const ROOT = fileURLToPath(new URL("../../", import.meta.url));
export const at = (...parts: string[]) => join(ROOT, ...parts);

export const readJson = async (path: string) => JSON.parse(await readFile(path, "utf8"));

/** A fresh folder under the OS temp dir (no node_modules above it); remove it with `removeTemp`. */
export const makeTemp = (prefix: string) => mkdtemp(join(tmpdir(), `web-data-mcp-${prefix}-`));
export const removeTemp = (dir: string | undefined) =>
  dir ? rm(dir, { recursive: true, force: true, maxRetries: 3 }) : Promise.resolve();

/**
 * The environment for a child: ours without the `npm_*` variables `npm test` sets (they would
 * point a nested npm at this project's config and scripts), plus `extra`.
 */
export function childEnv(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [k, v] of Object.entries(process.env)) {
    if (!/^npm_/i.test(k) && k !== "INIT_CWD" && !k.startsWith("WEBDATA_")) env[k] = v;
  }
  return { ...env, ...extra };
}

export type Run = ProcessRun;

export const run = (
  command: string,
  args: string[],
  options: { cwd?: string; env?: NodeJS.ProcessEnv } = {},
): Promise<Run> => runProcess(command, args, { cwd: options.cwd ?? ROOT, env: options.env ?? childEnv() });

/** `node ARGS`, with this Node. */
export const runNode = (args: string[], options: { cwd?: string; env?: NodeJS.ProcessEnv } = {}) =>
  run(process.execPath, args, options);

/** Fails with the child's output when it did not exit 0. */
export function ok(r: Run, what: string): Run {
  if (r.status !== 0) {
    throw new Error(`${what} exited ${r.status}\n--- stdout\n${r.stdout}\n--- stderr\n${r.stderr}`);
  }
  return r;
}

/** npm's CLI as a child (npm-cli.js next to this node, so no shell and no PATH lookup of npm.cmd). */
export async function npm(args: string[], options: { cwd?: string; env?: NodeJS.ProcessEnv } = {}) {
  const candidates = [
    process.env.npm_execpath,
    join(dirname(process.execPath), "../lib/node_modules/npm/bin/npm-cli.js"),
    join(dirname(process.execPath), "node_modules/npm/bin/npm-cli.js"),
  ].filter((p): p is string => !!p && p.endsWith(".js") && existsSync(p));
  if (candidates.length === 0) return run(process.platform === "win32" ? "npm.cmd" : "npm", args, options);
  return runNode([candidates[0], ...args], options);
}

/**
 * What the npm package and the .mcpb bundle ship besides dist/chunks/*.js (package.json `files`,
 * .mcpbignore, scripts/pack-bundle.mjs): the build's entry files and the package's own documents.
 */
export const BUILD_FILES = [
  "dist/cli.cjs",
  "dist/cli-main.cjs",
  "dist/stdio.cjs",
  "dist/runtime.cjs",
  "dist/tool-list.json",
];
/** The bin of earlier builds, which runs dist/cli.cjs: in the npm package, not in the .mcpb. */
export const EARLIER_BIN = "dist/cli.js";
export const PACKAGE_DOCS = ["package.json", "README.md", "LICENSE"];
