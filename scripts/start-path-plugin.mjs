// The esbuild plugin that keeps the stdio start-up path small (scripts/bundle.mjs uses it; so does
// the peers bench for its SDK floor, bench/sdk-floor.mjs, so both are bundled alike).
import { readFile } from "node:fs/promises";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { parse } from "acorn";
import { rewriteSource } from "./source-rewrite.mjs";

/**
 * What keeps the stdio start-up path (dist/cli.cjs → the stdio chunk) small, checked by
 * test/install/start-path.test.ts:
 * - `import { z } from "zod"` reaches zod's namespace object through a re-export, which esbuild
 *   cannot tree-shake: every locale (a third of the path's code) came along. Our sources get
 *   `import * as z from "zod"` instead, the same bindings, shaken by property.
 * - The SDK's `Server` imports its Ajv provider for a default it never uses here (createServer
 *   passes its own validator, src/server/json-schema-validator.ts: the server elicits nothing):
 *   that import gets a stub that refuses to run, so Ajv, ajv-formats and fast-uri stay out.
 * - The SDK's `types.js` builds every message schema of the protocol (about 150 zod schemas) at
 *   import: all those a chunk names were built before the first message, and the stdio handshake
 *   parses with a third of them (the envelope, `initialize`, `tools/list`, and the requests the SDK
 *   and we register a handler for, whose `method` literal `setRequestHandler` reads). Each
 *   top-level `const X = <zod call>` there becomes a memoised builder (`X$built()`, the same call,
 *   naming the other schemas through their builders) and an exported stand-in, `deferred(X$built)`
 *   (scripts/deferred-schema.mjs: a Proxy that builds the schema on its first use, then forwards
 *   every operation to it), both marked pure: a schema no code of a chunk uses is left out of that
 *   chunk, and one it uses is built the first time something reads it (a call's request and result
 *   schemas and the whole content-block family on the first `tools/call`), once. The rewrite fails
 *   the build when types.js no longer looks that way (`deferredSchemas`), and so does an SDK module
 *   that reads one of its schemas at its top level (`readsNoSchemaAtLoad`): it would be built as
 *   the module loads. test/install/deferred-schemas.test.ts counts what the handshake builds.
 *   That is `startPath`, for dist/stdio.cjs only. The other bundles (`leanSdk`: the runtime, HTTP,
 *   the CLI's commands) answer many calls and start rarely: there each such `const X = <call>`
 *   becomes `/* @__PURE__ *\/ (() => <call>)()` instead, the same value built as the module loads
 *   (a chunk still drops the schemas it does not name), so no parse goes through a stand-in (the
 *   per-call bench measured 20–60 µs more CPU a call with them in every bundle).
 * - zod's `fromJSONSchema` (used by the agents' chunk only) builds its local `z` by spreading
 *   zod's classic `schemas` and `checks` namespaces: every classic schema constructor and check is
 *   then live, and esbuild keeps a file's live parts in the one chunk that file is in, the zod
 *   chunk the start path loads (77 kB of 457). That object is rewritten to name only the members
 *   `fromJSONSchema` reads (`z.string`, `z.iso.date`, …), each from the module that exports it.
 * - The SDK's in-memory task store requires `node:crypto` on its first task id, not as it loads.
 * - The SDK's JSON-RPC message guards (`isJSONRPCRequest`…), which the Protocol runs on every
 *   message it receives, check the members their schema requires before they parse
 *   (`guardsRejectEarly`), in every bundle.
 */
/**
 * The SDK's in-memory task store imports `node:crypto` for the ids of tasks, which the start path
 * makes none of: loaded on the first task instead (1–2 ms of every start).
 */
const EAGER_CRYPTO = /^import \{ randomBytes \} from 'node:crypto';$/m;
const LAZY_CRYPTO =
  "import { createRequire as __cryptoRequire } from 'node:module';\nconst randomBytes = (size) => __cryptoRequire(import.meta.url)('node:crypto').randomBytes(size);";

/**
 * The rewritten text (or the check) of a file by its path, made once per build process:
 * scripts/bundle.mjs runs several builds side by side, each loading the same files.
 */
const rewritten = new Map();
const once = (path, make) => {
  if (!rewritten.has(path)) rewritten.set(path, make());
  return rewritten.get(path);
};

/**
 * The plugin, with the SDK's schemas built on first use (`deferSchemas`: the stdio start path,
 * dist/stdio.cjs, where they are a share of every start) or, as the SDK builds them, as its
 * types.js loads but only those a chunk names (every other bundle: the runtime, HTTP, the CLI's
 * commands, which answer many calls and start rarely, and whose parses a stand-in would only slow).
 */
function sdkPlugin({ deferSchemas }) {
  return {
    name: deferSchemas ? "start-path" : "lean-sdk",
    setup: (b) => setup(b, deferSchemas),
  };
}

/** For dist/stdio.cjs (and the peers bench's SDK floor, bundled alike). */
export const startPath = sdkPlugin({ deferSchemas: true });
/** For every other bundle. */
export const leanSdk = sdkPlugin({ deferSchemas: false });

/** The plugin's hooks (what each does: the comment at the top). */
function setup(b, deferSchemas) {
  b.onLoad({ filter: /@modelcontextprotocol[\\/]sdk[\\/]dist[\\/]esm[\\/]types\.js$/ }, async (args) => ({
    contents: await once(`${deferSchemas}:${args.path}`, async () => {
      const source = guardsRejectEarly(await readFile(args.path, "utf8"), args.path);
      return deferSchemas ? deferredSchemas(source, args.path) : pureSchemas(source, args.path);
    }),
    loader: "js",
  }));
  b.onLoad(
    { filter: /sdk[\\/]dist[\\/]esm[\\/]experimental[\\/]tasks[\\/]stores[\\/]in-memory\.js$/ },
    async (args) =>
      rewriteSource(args.path, await readFile(args.path, "utf8"), [
        [EAGER_CRYPTO, LAZY_CRYPTO, "imports randomBytes as expected"],
      ]),
  );
  // Every other SDK module, with the schemas deferred: checked (a schema it reads as it loads would
  // be built then), then loaded as it is.
  if (deferSchemas)
    b.onLoad({ filter: /@modelcontextprotocol[\\/]sdk[\\/]dist[\\/]esm[\\/].*\.js$/ }, async (args) => {
      await once(args.path, async () => readsNoSchemaAtLoad(await readFile(args.path, "utf8"), args.path));
      return undefined;
    });
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
}

/**
 * The members each JSON-RPC message guard's schema requires, checked before it parses. The
 * Protocol asks every message it receives whether it is a result, then an error, then a request,
 * then a notification, each a zod parse; a request is neither of the first two, and the parses that
 * say so (failed ones, each with its issues and error) took 11-16 µs a request once optimised, 35
 * µs before (docs/benchmarks.md, issue 33). A value without a required member fails its schema all
 * the same, so each guard's answer is unchanged.
 */
const GUARD_MEMBERS = {
  isJSONRPCRequest: ["JSONRPCRequestSchema", ["method", "id"]],
  isJSONRPCNotification: ["JSONRPCNotificationSchema", ["method"]],
  isJSONRPCResultResponse: ["JSONRPCResultResponseSchema", ["result"]],
  isJSONRPCErrorResponse: ["JSONRPCErrorResponseSchema", ["error"]],
};

/** types.js with each guard of GUARD_MEMBERS checking its members first; fails the build when one is not written as expected. */
export function guardsRejectEarly(source, path) {
  let out = source;
  for (const [guard, [schema, members]] of Object.entries(GUARD_MEMBERS)) {
    const written = `export const ${guard} = (value) => ${schema}.safeParse(value).success;`;
    if (!out.includes(written)) throw new Error(`bundle: ${path} no longer defines ${guard} as ${written}`);
    const present = members.map((m) => `${JSON.stringify(m)} in value`).join(" && ");
    out = out.replace(
      written,
      `export const ${guard} = (value) => typeof value === "object" && value !== null && ${present} && ${schema}.safeParse(value).success;`,
    );
  }
  return out;
}

/**
 * `source` with each top-level schema's initializer wrapped in a pure IIFE: the same value, built
 * at the same point of the module's evaluation, but a schema no code of a chunk uses is left out
 * of that chunk.
 */
function pureSchemas(source, path) {
  const { schemas } = typesModule(source, path);
  const inits = [...schemas.values()].filter((s) => !s.alias).map((s) => s.declarator.init);
  let out = source;
  for (const { start, end } of inits.sort((a, b) => b.start - a.start)) {
    out = `${out.slice(0, start)}/* @__PURE__ */ (() => ${out.slice(start, end)})()${out.slice(end)}`;
  }
  return out;
}

/**
 * The SDK's types.js parsed (acorn: the TypeScript compiler did this parse before, and loading it
 * took a second of every build), with its top-level schemas and the statements that declare them;
 * `fail` throws the build's error. Fails when the file no longer looks that way.
 */
function typesModule(source, path) {
  const program = parse(source, { ecmaVersion: "latest", sourceType: "module" });
  const fail = (why) => {
    throw new Error(`bundle: ${path} no longer looks like the SDK's types.js: ${why}`);
  };
  const zod = program.body
    .find((n) => n.type === "ImportDeclaration" && /^zod(\/v4)?$/.test(n.source.value))
    ?.specifiers.find((s) => s.type === "ImportNamespaceSpecifier")?.local.name;
  if (!zod) fail("no `import * as z from 'zod/v4'`");
  const { schemas, statements } = schemaDeclarations(program, zod, fail);
  if (schemas.size < 100) fail(`only ${schemas.size} top-level schemas`);
  return { program, schemas, statements, fail };
}

/** What the rewritten types.js imports its `builder` and `deferred` from. */
const DEFERRED_SCHEMA = fileURLToPath(new URL("./deferred-schema.mjs", import.meta.url));

/**
 * The SDK's types.js with every top-level schema built on its first use (see the comment at the
 * top). Each `[export] const X = <zod call>;` becomes
 *
 *     const X$built = builder("X", () => <the call, naming each other schema Y as Y$built()>);
 *     [export] const X = deferred(X$built);
 *
 * both marked pure (a schema no code of a chunk uses is left out of it, as before), and every other
 * reference within the file (the `isJSONRPCRequest`-style guards) reads `X$built()`. An alias
 * (`const A = X;`) stays one. Fails the build when the file no longer looks that way: a schema read
 * at the module's top level (it would be built as the module loads), a top-level call that is not
 * a zod schema's, a schema's name declared again inside the file.
 */
export function deferredSchemas(source, path) {
  const { program, schemas, statements, fail } = typesModule(source, path);
  const edits = schemaReferences(program, schemas, fail);
  /** `source` from `start` to `end` with the references in it edited. */
  const edited = (start, end) => {
    let out = source.slice(start, end);
    for (const [s, e, text] of edits.filter(([s, e]) => s >= start && e <= end).sort((x, y) => y[0] - x[0]))
      out = `${out.slice(0, s - start)}${text}${out.slice(e - start)}`;
    return out;
  };
  // Each statement that declares schemas is rewritten whole (its references edited within it);
  // the other references (in the guards' functions) one by one; all from the last one up.
  const rewrites = statements.map(({ node, declarators }) => {
    let builders = "";
    let text = "";
    let at = node.start;
    for (const { id, init } of declarators) {
      const { alias } = schemas.get(id.name);
      if (alias) {
        builders += `const ${id.name}$built = ${alias}$built;\n`;
        continue;
      }
      builders += `const ${id.name}$built = /* @__PURE__ */ __builder(${JSON.stringify(id.name)}, () => ${edited(init.start, init.end)});\n`;
      text += `${edited(at, init.start)}/* @__PURE__ */ __deferred(${id.name}$built)`;
      at = init.end;
    }
    return [node.start, node.end, `${builders}${text}${edited(at, node.end)}`];
  });
  const inRewrite = ([start]) => rewrites.some(([s, e]) => start >= s && start < e);
  let out = source;
  for (const [start, end, text] of [...rewrites, ...edits.filter((e) => !inRewrite(e))].sort(
    (x, y) => y[0] - x[0],
  ))
    out = `${out.slice(0, start)}${text}${out.slice(end)}`;
  return `import { builder as __builder, deferred as __deferred } from ${JSON.stringify(DEFERRED_SCHEMA)};\n${out}`;
}

/**
 * types.js's top-level schemas by name (`alias` when one is declared as another: `const A = X;`)
 * and the statements that declare them; fails on a top-level call that is not a zod schema's.
 */
function schemaDeclarations(program, zod, fail) {
  const schemas = new Map();
  const statements = [];
  for (const node of program.body) {
    const statement = node.type === "ExportNamedDeclaration" ? node.declaration : node;
    if (statement?.type !== "VariableDeclaration") continue;
    const declarators = [];
    for (const declarator of statement.declarations) {
      const { id, init } = declarator;
      if (init?.type === "Identifier" && schemas.has(init.name)) {
        schemas.set(id.name, { declarator, alias: init.name });
      } else if (init?.type === "CallExpression") {
        const root = calleeRoot(init);
        if (root !== zod && !schemas.has(root))
          fail(`${id.name} is made by a call on ${root}, not a zod schema's`);
        schemas.set(id.name, { declarator });
      } else continue;
      declarators.push(declarator);
    }
    if (declarators.length > 0) statements.push({ node, declarators });
  }
  return { schemas, statements };
}

/**
 * An edit `[start, end, text]` for each reference to a schema within types.js, which reads the
 * schema itself (`X$built()`): each is inside a schema's initializer or a function, or the
 * module would build the schema as it loads (then it fails, as it does on a schema's name
 * declared again inside the file). An alias's value is left as it is.
 */
function schemaReferences(program, schemas, fail) {
  const inits = new Set([...schemas.values()].filter((s) => !s.alias).map((s) => s.declarator.init));
  const aliased = new Set([...schemas.values()].filter((s) => s.alias).map((s) => s.declarator.init));
  const edits = [];
  walk(program, [], (node, ancestors) => {
    const parent = ancestors.at(-1);
    if (node.type !== "Identifier" || !schemas.has(node.name) || aliased.has(node)) return;
    if (parent.type === "MemberExpression" && parent.property === node && !parent.computed) return;
    if (parent.type === "Property" && parent.key === node && !parent.shorthand && !parent.computed) return;
    if (parent.type === "ExportSpecifier") return;
    if (parent.type === "VariableDeclarator" && parent.id === node) {
      if (schemas.get(node.name).declarator !== parent)
        fail(`${node.name} is declared again inside the file`);
      return;
    }
    if (
      parent.id === node ||
      parent.params?.includes(node) ||
      (parent.type === "AssignmentPattern" && parent.left === node)
    )
      fail(`${node.name} is declared again inside the file`);
    if (!ancestors.some((a) => /Function/.test(a.type) || inits.has(a)))
      fail(`${node.name} is read at the module's top level, so it would be built as the module loads`);
    const built = `${node.name}$built()`;
    const shorthand = parent.type === "Property" && parent.shorthand;
    edits.push([node.start, node.end, shorthand ? `${node.name}: ${built}` : built]);
  });
  return edits;
}

/**
 * Fails when an SDK module uses a schema it imports from types.js outside a function (a class
 * field's initializer counts as one): reading it there would build it as the module loads.
 */
export function readsNoSchemaAtLoad(source, path) {
  const types = join(path.slice(0, path.search(/[\\/]dist[\\/]esm[\\/]/)), "dist", "esm", "types.js");
  const program = parse(source, { ecmaVersion: "latest", sourceType: "module" });
  const names = new Set(
    program.body
      .filter((n) => n.type === "ImportDeclaration" && resolve(dirname(path), n.source.value) === types)
      .flatMap((n) => n.specifiers.map((s) => s.local.name))
      .filter((name) => name.endsWith("Schema")),
  );
  if (names.size === 0) return;
  walk(program, [], (node, ancestors) => {
    const parent = ancestors.at(-1);
    if (node.type !== "Identifier" || !names.has(node.name)) return;
    if (/^Import/.test(parent.type)) return;
    if (parent.type === "MemberExpression" && parent.property === node && !parent.computed) return;
    if (parent.type === "Property" && parent.key === node && !parent.shorthand && !parent.computed) return;
    const later = ancestors.some(
      (a) =>
        /Function/.test(a.type) ||
        (a.type === "PropertyDefinition" && !a.static && a.value && ancestors.includes(a.value)),
    );
    if (!later)
      throw new Error(
        `bundle: ${path} uses ${node.name} as it loads, which would build it then; the SDK's schemas are built on first use (scripts/start-path-plugin.mjs)`,
      );
  });
}

/** The identifier a call chain such as `z.object({…}).strict()` or `X.extend({…})` starts from. */
function calleeRoot(call) {
  let node = call.callee;
  while (node.type === "MemberExpression" || node.type === "CallExpression")
    node = node.type === "MemberExpression" ? node.object : node.callee;
  return node.type === "Identifier" ? node.name : node.type;
}

/** Calls `visit(node, ancestors)` for every node of an acorn tree, depth first. */
function walk(node, ancestors, visit) {
  visit(node, ancestors);
  const path = [...ancestors, node];
  for (const value of Object.values(node)) {
    if (Array.isArray(value)) {
      for (const child of value) if (typeof child?.type === "string") walk(child, path, visit);
    } else if (typeof value?.type === "string") walk(value, path, visit);
  }
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
