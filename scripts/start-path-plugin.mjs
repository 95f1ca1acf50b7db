// The esbuild plugin that keeps the stdio start-up path small (scripts/bundle.mjs uses it; so does
// the peers bench for its SDK floor, bench/sdk-floor.mjs, so both are bundled alike).
import { readFile } from "node:fs/promises";
import { dirname, join } from "node:path";
import { pathToFileURL } from "node:url";
import { parse } from "acorn";

/**
 * What keeps the stdio start-up path (dist/cli.js → the stdio chunk) small, checked by
 * test/install/start-path.test.ts:
 * - `import { z } from "zod"` reaches zod's namespace object through a re-export, which esbuild
 *   cannot tree-shake: every locale (a third of the path's code) came along. Our sources get
 *   `import * as z from "zod"` instead, the same bindings, shaken by property.
 * - The SDK's `Server` imports its Ajv provider for a default it never uses here (createServer
 *   passes its own validator, src/server/json-schema-validator.ts: the server elicits nothing):
 *   that import gets a stub that refuses to run, so Ajv, ajv-formats and fast-uri stay out.
 * - The SDK's `types.js` builds every message schema of the protocol (about 150 zod schemas) at
 *   import, and esbuild must keep a call it cannot prove pure: all of them were built before the
 *   first message. Each top-level `const X = <call>` there becomes `const X = /* @__PURE__ *\/ (() =>
 *   <call>)()`: the same value, built at the same point of the module's evaluation, but a schema no
 *   code of a chunk uses is left out of that chunk (the start path keeps the ones `Server`,
 *   `Protocol`, the stdio transport and our guard name, and those they are built from).
 * - zod's `fromJSONSchema` (used by the agents' chunk only) builds its local `z` by spreading
 *   zod's classic `schemas` and `checks` namespaces: every classic schema constructor and check is
 *   then live, and esbuild keeps a file's live parts in the one chunk that file is in, the zod
 *   chunk the start path loads (77 kB of 457). That object is rewritten to name only the members
 *   `fromJSONSchema` reads (`z.string`, `z.iso.date`, …), each from the module that exports it.
 * - The SDK's in-memory task store requires `node:crypto` on its first task id, not as it loads.
 */
/**
 * The SDK's in-memory task store imports `node:crypto` for the ids of tasks, which the start path
 * makes none of: loaded on the first task instead (1–2 ms of every start).
 */
const EAGER_CRYPTO = /^import \{ randomBytes \} from 'node:crypto';$/m;
const LAZY_CRYPTO =
  "import { createRequire as __cryptoRequire } from 'node:module';\nconst randomBytes = (size) => __cryptoRequire(import.meta.url)('node:crypto').randomBytes(size);";

/**
 * The rewritten text of a file by its path, made once per build process: scripts/bundle.mjs runs
 * several builds side by side (each parses the SDK's types.js with TypeScript otherwise).
 */
const rewritten = new Map();
const once = (path, make) => {
  if (!rewritten.has(path)) rewritten.set(path, make());
  return rewritten.get(path);
};

export const startPath = {
  name: "start-path",
  setup(b) {
    b.onLoad({ filter: /@modelcontextprotocol[\\/]sdk[\\/]dist[\\/]esm[\\/]types\.js$/ }, async (args) => ({
      contents: await once(args.path, async () => pureSchemas(await readFile(args.path, "utf8"), args.path)),
      loader: "js",
    }));
    b.onLoad(
      { filter: /sdk[\\/]dist[\\/]esm[\\/]experimental[\\/]tasks[\\/]stores[\\/]in-memory\.js$/ },
      async (args) => {
        const source = await readFile(args.path, "utf8");
        if (!EAGER_CRYPTO.test(source))
          return { errors: [{ text: `bundle: ${args.path} no longer imports randomBytes as expected` }] };
        return { contents: source.replace(EAGER_CRYPTO, LAZY_CRYPTO), loader: "js" };
      },
    );
    b.onLoad({ filter: /zod[\\/]v4[\\/]classic[\\/]from-json-schema\.js$/ }, async (args) => ({
      contents: await once(args.path, async () => namedMembers(await readFile(args.path, "utf8"), args.path)),
      loader: "js",
    }));
    b.onLoad({ filter: /[\\/]src[\\/].*\.ts$/ }, async (args) => {
      const source = await readFile(args.path, "utf8");
      return {
        contents: source.replace(/^import \{ z \} from "zod";$/gm, 'import * as z from "zod";'),
        loader: "ts",
      };
    });
    b.onResolve({ filter: /validation[\\/]ajv-provider\.js$/ }, (args) =>
      /sdk[\\/]dist[\\/]esm[\\/]server[\\/]index\.js$/.test(args.importer)
        ? { path: "ajv-provider-stub", namespace: "start-path" }
        : undefined,
    );
    b.onLoad({ filter: /.*/, namespace: "start-path" }, () => ({
      contents:
        'export class AjvJsonSchemaValidator { constructor() { throw new Error("bundle: pass Server a jsonSchemaValidator (createServer does)"); } }',
      loader: "js",
    }));
  },
};

/**
 * `source` with each top-level `const X = <call>;` initializer wrapped in a pure IIFE (acorn: the
 * TypeScript compiler did this parse before, and loading it took a second of every build).
 */
function pureSchemas(source, path) {
  const program = parse(source, { ecmaVersion: "latest", sourceType: "module" });
  const edits = [];
  for (const node of program.body) {
    const statement = node.type === "ExportNamedDeclaration" ? node.declaration : node;
    if (statement?.type !== "VariableDeclaration") continue;
    for (const declaration of statement.declarations) {
      const init = declaration.init;
      if (init?.type === "CallExpression") edits.push([init.start, init.end]);
    }
  }
  if (edits.length < 100) throw new Error(`bundle: ${path} no longer looks like the SDK's types.js`);
  let out = source;
  for (const [start, end] of edits.reverse()) {
    out = `${out.slice(0, start)}/* @__PURE__ */ (() => ${out.slice(start, end)})()${out.slice(end)}`;
  }
  return out;
}

const SPREAD_Z = /^const z = \{\s*\.\.\._schemas,\s*\.\.\._checks,\s*iso: _iso,\s*\};$/m;

/** zod's from-json-schema.js with its spread `z` replaced by the members it reads, by name. */
async function namedMembers(source, path) {
  if (!SPREAD_Z.test(source)) throw new Error(`bundle: ${path} no longer builds its z as expected`);
  const load = (name) => import(pathToFileURL(join(dirname(path), name)).href);
  const [schemas, checks, iso] = await Promise.all([load("schemas.js"), load("checks.js"), load("iso.js")]);
  const uses = (re) => [...new Set([...source.matchAll(re)].map((m) => m[1]))].sort();
  const from = (name) => {
    if (name in schemas) return `_schemas.${name}`;
    if (name in checks) return `_checks.${name}`;
    throw new Error(`bundle: ${path} reads z.${name}, found in neither schemas.js nor checks.js`);
  };
  const members = uses(/\bz\.([A-Za-z_$][\w$]*)/g)
    .filter((name) => name !== "iso")
    .map((name) => `${name}: ${from(name)}`);
  const isoMembers = uses(/\bz\.iso\.([A-Za-z_$][\w$]*)/g).map((name) => {
    if (!(name in iso)) throw new Error(`bundle: ${path} reads z.iso.${name}, not in iso.js`);
    return `${name}: _iso.${name}`;
  });
  return source.replace(
    SPREAD_Z,
    `const z = { ${[...members, `iso: { ${isoMembers.join(", ")} }`].join(", ")} };`,
  );
}
