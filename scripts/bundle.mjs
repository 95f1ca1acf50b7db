// Bundles the CLI entry into dist/cli.cjs, the package's bin, so the server starts fast: Node
// resolves and reads one CommonJS file (plus lazily loaded ES module chunks for the sandbox, HTTP
// and agent parts) instead of hundreds of modules, and a start that loads no ES module never
// starts Node's ES module loader (6-7 ms of a spawn). dist/cli.js is an ES module that runs it, for
// configurations written when the bin was that file.
// The stdio server is bundled a second time, as two CommonJS files (dist/stdio.cjs, its start path,
// and dist/runtime.cjs, its tools, loaded on first need), which dist/cli.cjs compiles with V8's code
// cache (src/cli/code-cache.ts): Node 20 caches no ES module's compiled code, and that compiling was
// most of the start-up above the SDK's own schema building, and of a first call's wait.
import { chmod, readFile, rm, writeFile } from "node:fs/promises";
import { relative, resolve } from "node:path";
import { build, transform } from "esbuild";
import { lazyLruClock } from "./lru-cache-plugin.mjs";
import { leanSdk, startPath } from "./start-path-plugin.mjs";
import { leanUndici } from "./undici-plugin.mjs";

/** What every bundle does to undici and lru-cache (each plugin file says why). */
const leanDependencies = [leanUndici, lazyLruClock];

// Chunk names carry content hashes: clear old ones so a pack never ships stale chunks.
await rm("dist/chunks", { recursive: true, force: true });
/** Each bundle's own package version (src/server/version.ts): no package.json read as it starts. */
const { version } = JSON.parse(await readFile("package.json", "utf8"));
const define = { __WEBDATA_VERSION__: JSON.stringify(version) };
/** What both builds share: one bundle per entry for Node 20, with source maps. */
const common = {
  outdir: "dist",
  bundle: true,
  platform: "node",
  target: "node20",
  sourcemap: true,
  minifySyntax: true,
  legalComments: "none",
  logLevel: "warning",
};
// CommonJS dependencies (express, ajv, …) call require(); give the ESM bundle one.
const esmBanner = {
  js: 'import { createRequire as __createRequire } from "node:module"; const require = __createRequire(import.meta.url);',
};
// Each CommonJS bundle's first lines: strict, as its ES module sources are (esbuild's own
// "use strict" would come second, after a banner, and count for nothing), and `import.meta.url`.
const CJS_BANNER = `"use strict";\nconst __import_meta_url = require("node:url").pathToFileURL(__filename).href;`;
/** What every CommonJS bundle defines: the package version and `import.meta.url` as the banner's. */
const cjsDefine = { ...define, "import.meta.url": "__import_meta_url" };
/** dist/cli.js: the bin of earlier builds, kept for configurations that name it. */
const CLI_SHIM = `#!/usr/bin/env node
// The CLI is dist/cli.cjs (the package's bin); this file runs it for configurations that name
// dist/cli.js, through Node's ES module loader (a few ms more of start-up than the bin itself).
// Required, not imported: importing it would also have the loader scan it for its exports.
import { createRequire } from "node:module";
createRequire(import.meta.url)("./cli.cjs");
`;
// The split build makes the ES module chunks the CLI's `import()`s load (its own entry file,
// dist/cli.js, is then replaced by the shim above).
const esm = await build({
  ...common,
  entryPoints: { cli: "src/cli.ts" },
  chunkNames: "chunks/[name]-[hash]",
  splitting: true,
  format: "esm",
  metafile: true,
  plugins: [leanSdk, ...leanDependencies],
  define,
  banner: esmBanner,
});

/** The ESM chunk esbuild made for each module a dynamic import() loads, by its source path. */
const chunkOf = new Map(
  Object.entries(esm.metafile.outputs)
    .filter(([, out]) => out.entryPoint)
    .map(([file, out]) => [resolve(out.entryPoint), `./${relative("dist", file)}`]),
);

/**
 * The stdio server as CommonJS, which dist/cli.cjs compiles with V8's code cache (Node 20 caches no
 * ES module's compiled code): dist/stdio.cjs is src/server/stdio.ts and everything it imports
 * statically (the start path up to the build-time `tools/list`); dist/runtime.cjs is what its
 * `import("./runtime.js")` loads on the first call (or shortly after the handshake): the tools,
 * the API client, the agent catalog. Each is one file with its own cache, so the start path never
 * reads or deserialises the runtime's 1.5 MB. The rest of what they load lazily (the 2026-07-28
 * server, OpenTelemetry, the tool registry for telemetry's names) stays in the ESM chunks above.
 * Each `import()` becomes `__import("./runtime.cjs")` or `__import("./chunks/…")`, which the loader
 * serves relative to dist/ (src/cli/code-cache.ts); a dynamic import of anything else fails the
 * build, so nothing lazy is pulled onto the start path unnoticed.
 *
 * The other commands (`call`, `tools`, `--http`, the sandbox) stay ES module chunks: bundled the
 * same way they saved 40–70 ms of CPU a run (`call extract_page --sandbox` 610 → 540 ms, an HTTP
 * server's start 600 → 560 ms) but added about 3 s to every build and 6.5 MB to the package.
 */
const RUNTIME = resolve("src/server/runtime.ts");
const CJS_BUNDLES = { stdio: "src/cli/serve-stdio.ts", runtime: RUNTIME };

/** Serves each dynamic import of a bundle: `./runtime.cjs` or its ESM chunk. */
const lazyImports = {
  name: "lazy-imports",
  setup(b) {
    b.onResolve({ filter: /^\./ }, (args) => {
      if (args.kind !== "dynamic-import") return undefined;
      const source = resolve(args.resolveDir, args.path.replace(/\.js$/, ".ts"));
      if (source === RUNTIME) return { path: "./runtime.cjs", external: true };
      const chunk = chunkOf.get(source);
      if (!chunk) return { errors: [{ text: `bundle: no ESM chunk for the dynamic import of ${source}` }] };
      return { path: chunk, external: true };
    });
  },
};
// The files build side by side (esbuild's service runs them in parallel).
await Promise.all([
  cliFile("cli", "src/bin.ts"),
  cliFile("cli-main", "src/cli.ts", [lazyImports, leanSdk, ...leanDependencies]),
  ...Object.entries(CJS_BUNDLES).map(([name, entry]) => bundleCjs(name, entry)),
]);
await Promise.all([writeFile("dist/cli.js", CLI_SHIM), rm("dist/cli.js.map", { force: true })]);
await Promise.all(["dist/cli.cjs", "dist/cli.js", "dist/cli-main.cjs"].map((file) => chmod(file, 0o755)));
await Promise.all(
  Object.keys(esm.metafile.outputs)
    .filter((file) => file.endsWith(".js") && file !== "dist/cli.js")
    .map(asciiOnly),
);

/**
 * The CLI's two CommonJS files: dist/cli.cjs, the bin (src/bin.ts), which with no argument runs
 * the stdio server from dist/stdio.cjs (the code-cache loader and the cache dir's rule are all it
 * holds; a plain start so compiles 8 kB of the CLI instead of 33 kB) and else requires
 * dist/cli-main.cjs: the CLI (src/cli.ts) with what it imports statically (flags, config, the
 * code-cache loader) in it rather than in chunks it shares with `call` and the others, so the
 * stdio server's start with flags reads three CommonJS files and no ES module; its dynamic
 * imports load the chunks built above (Node's `import()`, which starts the ES module loader only
 * for the commands that use a chunk).
 */
async function cliFile(name, entry, plugins = []) {
  await build({
    ...common,
    entryPoints: { [name]: entry },
    outExtension: { ".js": ".cjs" },
    format: "cjs",
    plugins,
    define: cjsDefine,
    banner: { js: CJS_BANNER },
  });
  await asciiOnly(`dist/${name}.cjs`);
}

/** Builds `dist/<name>.cjs` from `entry`, its lazy imports served by the loader, ASCII only. */
async function bundleCjs(name, entry) {
  const file = `dist/${name}.cjs`;
  const built = await build({
    ...common,
    entryPoints: { [name]: entry },
    outExtension: { ".js": ".cjs" },
    format: "cjs",
    metafile: true,
    write: false,
    // An `import(expression)` left in a bundle is one the loader cannot serve: fail the build.
    logOverride: { "unsupported-dynamic-import": "error" },
    // The SDK's schemas built on first use on the start path only (scripts/start-path-plugin.mjs).
    plugins: [lazyImports, name === "stdio" ? startPath : leanSdk, ...leanDependencies],
    define: cjsDefine,
    banner: { js: CJS_BANNER },
  });
  // Every other dynamic import left is external: a lazy part the loader serves, or the build fails.
  const dynamicImports = built.metafile.outputs[file].imports.filter((i) => i.kind === "dynamic-import");
  const unserved = dynamicImports.find((i) => !/^\.\/(chunks\/[^/]+\.js|runtime\.cjs)$/.test(i.path));
  if (unserved) throw new Error(`bundle: ${file} has an import("${unserved.path}") the loader cannot serve`);
  if (name === "stdio" && !dynamicImports.some((i) => i.path === "./runtime.cjs"))
    throw new Error("bundle: dist/stdio.cjs does not load dist/runtime.cjs");
  const lazy = /\bimport\("(\.\/(?:chunks\/[^"]+|runtime\.cjs))"\)/g;
  await Promise.all(
    built.outputFiles.map(async (out) => {
      if (!out.path.endsWith(".cjs")) return writeFile(out.path, out.contents);
      // Same length per line but for the two added letters (the source map's columns shift by two there).
      const cjs = out.text.replace(lazy, '__import("$1")');
      await writeFile(out.path, await asciiText(cjs, "cjs", file));
    }),
  );
}

/**
 * Rewrites `file` as ASCII only (`asciiText`).
 */
async function asciiOnly(file) {
  const text = await readFile(file, "utf8");
  const ascii = await asciiText(text, file.endsWith(".cjs") ? "cjs" : "esm", file);
  if (ascii !== text) await writeFile(file, ascii);
}

/**
 * `text` as ASCII only: esbuild escapes every non-ASCII character of the code (its default
 * charset) but copies comments as they are, and one `’` in a comment makes the whole file UTF-8 to
 * decode and a two-byte string for V8 (the loader read 307 kB of dist/stdio.cjs in 5 ms, an ASCII
 * file in under 1 ms; Node's ES module loader decodes each chunk alike). Each such character
 * becomes its `\u` escape, which means the same in a comment, a string or a regular expression;
 * checked by comparing both texts' code (whitespace minified, so without comments) as esbuild reads it.
 */
async function asciiText(text, format, file) {
  if (!/[^\0-\x7f]/.test(text)) return text;
  const escaped = text.replace(/[^\0-\x7f]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`);
  const code = async (source) =>
    (await transform(source, { minifyWhitespace: true, charset: "ascii", format })).code;
  if ((await code(text)) !== (await code(escaped)))
    throw new Error(`bundle: ${file} has a non-ASCII character whose escape changes the code`);
  return escaped;
}
