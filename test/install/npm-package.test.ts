/**
 * `npx web-data-mcp` from the published package: `npm pack` the project, install the tarball into
 * an empty folder without the registry (`--offline`: the package has zero runtime dependencies,
 * the bundle carries them), and run the installed bin from there.
 */
import { mkdir, readdir, readFile, writeFile } from "node:fs/promises";
import { dirname, join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { assertBuilt } from "../helpers/mcp.js";
import {
  at,
  BUILD_FILES,
  childEnv,
  EARLIER_BIN,
  makeTemp,
  npm,
  ok,
  PACKAGE_DOCS,
  readJson,
  removeTemp,
  run,
  runNode,
} from "./helpers.js";

let temp: string | undefined;
let app: string;
let packed: { filename: string; files: Array<{ path: string }> };
let bin: string;
// WEBDATA_CACHE_DIR: where `call --sandbox` keeps its shell sandbox, stopped in afterAll.
const env = () =>
  childEnv({
    npm_config_cache: join(temp!, "npm-cache"),
    npm_config_update_notifier: "false",
    WEBDATA_CACHE_DIR: join(temp!, "webdata-cache"),
  });

beforeAll(async () => {
  assertBuilt();
  temp = await makeTemp("npm");
  const pack = ok(
    await npm(["pack", "--json", "--ignore-scripts", "--pack-destination", temp], { env: env() }),
    "npm pack",
  );
  [packed] = JSON.parse(pack.stdout.slice(pack.stdout.indexOf("[")));
  app = join(temp, "app");
  await mkdir(app);
  await writeFile(
    join(app, "package.json"),
    '{ "name": "empty-app", "version": "1.0.0", "private": true }\n',
  );
  ok(
    await npm(
      ["install", join(temp, packed.filename), "--offline", "--no-audit", "--no-fund", "--ignore-scripts"],
      { cwd: app, env: env() },
    ),
    "npm install (offline)",
  );
  bin = join(app, "node_modules/web-data-mcp/dist/cli.cjs");
}, 60_000);

afterAll(async () => {
  if (temp) await runNode([at("dist/cli.cjs"), "sandbox", "--stop"], { env: env() });
  await removeTemp(temp);
});

describe("the npm package", () => {
  it("holds only the bundle, package.json and README (no sources, tests or source maps)", () => {
    const paths = packed.files.map((f) => f.path).sort();
    expect(paths).toEqual(expect.arrayContaining(["package.json", "README.md", ...BUILD_FILES, EARLIER_BIN]));
    for (const p of paths) {
      if (![...PACKAGE_DOCS, ...BUILD_FILES, EARLIER_BIN].includes(p))
        expect(p).toMatch(/^dist\/chunks\/[^/]+\.js$/);
    }
  });

  it("ships the esbuild bundle as its bin (it loads dist/stdio.cjs or dist/cli-main.cjs, whose imports all go to dist/chunks)", async () => {
    const importsOf = (text: string) =>
      [...text.matchAll(/\b(?:from|import)\s*\(?\s*["'](\.{1,2}\/[^"']+)["']/g)].map((m) => m[1]);
    const cli = await readFile(bin, "utf8");
    expect(importsOf(cli), "dist/cli.cjs must be the bundle (npm run build)").toEqual([]);
    expect(cli).toContain('"./stdio.cjs"');
    expect(cli).toContain('"./cli-main.cjs"');
    const imports = importsOf(await readFile(join(dirname(bin), "cli-main.cjs"), "utf8"));
    expect(imports.length).toBeGreaterThan(0);
    for (const target of imports)
      expect(target, "dist/cli-main.cjs must be the bundle (npm run build)").toMatch(/^\.\/chunks\//);
  });

  it("installs into an empty folder offline with zero dependencies", async () => {
    const installed = (await readdir(join(app, "node_modules"))).filter((n) => !n.startsWith("."));
    expect(installed).toEqual(["web-data-mcp"]);
    const pkg = await readJson(join(app, "node_modules/web-data-mcp/package.json"));
    expect(pkg.dependencies ?? {}).toEqual({});
    expect(pkg.bin).toEqual({ "web-data-mcp": "dist/cli.cjs" });
  });

  it("web-data-mcp --version prints the package version; --help explains the commands", async () => {
    const { version } = await readJson(at("package.json"));
    const v = ok(await runNode([bin, "--version"], { cwd: app }), "--version");
    expect(v.stdout.trim()).toBe(version);
    // dist/cli.js, the bin of earlier builds, still runs it for configurations that name that file.
    const shim = join(app, "node_modules/web-data-mcp", EARLIER_BIN);
    expect(ok(await runNode([shim, "--version"], { cwd: app }), "dist/cli.js --version").stdout.trim()).toBe(
      version,
    );
    const help = ok(await runNode([bin, "--help"], { cwd: app }), "--help");
    for (const word of ["--sandbox", "--http", "sandbox", "tools", "call", "WEBDATA_API_KEY"]) {
      expect(help.stdout).toContain(word);
    }
  });

  it("node_modules/.bin/web-data-mcp tools --sandbox lists the tools from the installed folder", async () => {
    if (process.platform === "win32") return; // .bin holds a .cmd shim there; the path below is POSIX
    const r = ok(
      await run(join(app, "node_modules/.bin/web-data-mcp"), ["tools", "--sandbox"], { cwd: app }),
      "tools",
    );
    for (const name of ["serp_search", "extract_page", "crawl_site", "get_task"]) {
      expect(r.stdout).toMatch(new RegExp(`^${name}\\s`, "m"));
    }
  });

  it("npx web-data-mcp (npm exec) resolves the installed bin and runs a sandbox call", async () => {
    const r = ok(
      await npm(
        [
          "exec",
          "--offline",
          "--",
          "web-data-mcp",
          "call",
          "serp_search",
          '{"search_engine":"engine1_search","query":"hiking boots","num_results":2}',
          "--sandbox",
        ],
        { cwd: app, env: env() },
      ),
      "npm exec web-data-mcp call",
    );
    expect(r.stdout).toMatch(/http:\/\/127\.0\.0\.1:\d+\/site\//); // a result from the demo site
  });

  it("without a key it refuses to start and says which variable to set", async () => {
    const r = await runNode([bin], { cwd: app });
    expect(r.status).not.toBe(0);
    expect(r.stderr).toContain("WEBDATA_API_KEY");
  });
});
