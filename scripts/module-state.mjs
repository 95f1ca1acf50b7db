#!/usr/bin/env node
/**
 * Module-level mutable state in src/ (issue 31: "test isolation is turned back on without the
 * suite getting slower"). The suite runs with `isolate: false` (docs/testing.md "What stands in
 * for isolation"): a worker keeps the modules it imported for its next file, so state held by a
 * module would leak from one test file into the next, and from one caller into another in the
 * HTTP server. This check keeps that state out of src/ instead:
 *
 *   - a top-level `let` or `var` is state;
 *   - a top-level `const` holding a Map, Set, array, object or class instance is state when the
 *     module mutates it anywhere (`.set/.add/.delete/.clear/.push/.pop/.shift/.unshift/.splice/
 *     .sort/.reverse/.fill`, an assignment to one of its properties or elements, `delete`, `++`).
 *
 * State belongs to what owns it (a client runtime, a server, a caller's logger), passed in. The
 * exceptions are ALLOWED below, one line of reason each: WeakMaps keyed by an owner object (the
 * entry belongs to its key and goes with it) and memo caches of pure functions (same input, same
 * answer, whoever asks first).
 *
 *   node scripts/module-state.mjs          lists the module state found, allowed or not
 *   node scripts/module-state.mjs --check  the same, and fails on any not allowed
 */
import { readdirSync, readFileSync } from "node:fs";
import { join, relative } from "node:path";
import ts from "typescript";

/** `file` (relative to the repository) and top-level `name`, with why it may stay. */
export const ALLOWED = [
  {
    file: "src/server/tool-schemas.ts",
    name: "inputs",
    reason: "WeakMap keyed by the tool definition: its zod input schema, built once",
  },
  {
    file: "src/server/tool-schemas.ts",
    name: "outputs",
    reason: "WeakMap keyed by the tool definition: its zod output schema, built once",
  },
  {
    file: "src/server/tool-schemas.ts",
    name: "inputJson",
    reason: "WeakMap keyed by the tool definition: its input JSON Schema, built once",
  },
  {
    file: "src/server/list-tools.ts",
    name: "entries",
    reason:
      "WeakMap keyed by the tool definition: its tools/list entry, built once (or taken from the same build's build-time list)",
  },
  {
    file: "src/agents/service.ts",
    name: "shared",
    reason: "WeakMap keyed by the client: the agent catalog its servers share, gone with the client",
  },
  {
    file: "src/tools/template-params.ts",
    name: "cache",
    reason: "WeakMap keyed by the client: template versions it fetched, gone with the client",
  },
  {
    file: "src/tools/agent-run.ts",
    name: "madeHere",
    reason: "WeakSet keyed by the catalog: whether this module made it (and so closes it)",
  },
  {
    file: "src/tools/map-site.ts",
    name: "withoutSyncMap",
    reason: "WeakSet keyed by the client: its service answered that it has no sync map",
  },
  {
    file: "src/sandbox/templates/json-schema.ts",
    name: "compiled",
    reason: "WeakMap keyed by the schema object: its compiled ajv validator (pure memo)",
  },
  {
    file: "src/agents/json-schema.ts",
    name: "converted",
    reason: "WeakMap keyed by the schema object: its zod conversion (pure memo)",
  },
  {
    file: "src/sandbox/formats.ts",
    name: "markdownCache",
    reason: "bounded memo of a pure function (HTML → markdown): same page, same answer",
  },
  {
    file: "src/sandbox/screenshot.ts",
    name: "encoded",
    reason: "bounded memo of a pure function (title hash and text bars → PNG): same look, same bytes",
  },
  {
    file: "src/agents/linear-pattern.ts",
    name: "compiled",
    reason: "bounded memo of a pure function (pattern → RegExp): same pattern, same answer",
  },
];

const MUTATORS = new Set([
  "set",
  "add",
  "delete",
  "clear",
  "push",
  "pop",
  "shift",
  "unshift",
  "splice",
  "sort",
  "reverse",
  "fill",
]);

function* files(dir) {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) yield* files(path);
    else if (/\.tsx?$/.test(entry.name) && !entry.name.endsWith(".d.ts")) yield path;
  }
}

/** An initializer whose value can be changed in place: `new X()`, `[...]`, `{...}` (through `as`/`satisfies`). */
function isContainer(init) {
  let node = init;
  while (
    node &&
    (ts.isAsExpression(node) || ts.isSatisfiesExpression(node) || ts.isParenthesizedExpression(node))
  )
    node = node.expression;
  return (
    !!node &&
    (ts.isNewExpression(node) || ts.isArrayLiteralExpression(node) || ts.isObjectLiteralExpression(node))
  );
}

const COLLECTIONS = new Set(["Map", "Set", "WeakMap", "WeakSet", "LRUCache"]);
const isCollection = (init) =>
  ts.isNewExpression(init) && ts.isIdentifier(init.expression) && COLLECTIONS.has(init.expression.text);

const isAssignment = (kind) => kind >= ts.SyntaxKind.FirstAssignment && kind <= ts.SyntaxKind.LastAssignment;
const rootName = (node) => {
  while (ts.isPropertyAccessExpression(node) || ts.isElementAccessExpression(node)) node = node.expression;
  return ts.isIdentifier(node) ? node.text : undefined;
};

/**
 * Names of `candidates` the module mutates, with the line of the first mutation; `collections`
 * (the candidates holding a `new Map/Set/WeakMap/WeakSet/LRUCache`) also count when passed whole
 * to a function. Names are matched by text: a local that shadows one is taken for it (be stricter
 * rather than miss one); a mutation through an alias other than an argument is not seen.
 */
function mutated(source, candidates, collections) {
  const found = new Map();
  const hit = (name, node) => {
    if (candidates.has(name) && !found.has(name))
      found.set(name, source.getLineAndCharacterOfPosition(node.getStart(source)).line + 1);
  };
  const visit = (node) => {
    if (ts.isCallExpression(node) && ts.isPropertyAccessExpression(node.expression)) {
      const { expression, name } = node.expression;
      if (MUTATORS.has(name.text)) {
        const root = rootName(expression);
        if (root) hit(root, node);
      }
    }
    // a collection passed on whole (`once(cache, …)`): the callee may mutate it, so it counts
    if (ts.isCallExpression(node) || ts.isNewExpression(node))
      for (const arg of node.arguments ?? [])
        if (ts.isIdentifier(arg) && collections.has(arg.text)) hit(arg.text, node);
    const target =
      ts.isBinaryExpression(node) && isAssignment(node.operatorToken.kind)
        ? node.left
        : ts.isDeleteExpression(node) ||
            ((ts.isPrefixUnaryExpression(node) || ts.isPostfixUnaryExpression(node)) &&
              (node.operator === ts.SyntaxKind.PlusPlusToken ||
                node.operator === ts.SyntaxKind.MinusMinusToken))
          ? (node.expression ?? node.operand)
          : undefined;
    if (target && (ts.isPropertyAccessExpression(target) || ts.isElementAccessExpression(target))) {
      const root = rootName(target);
      if (root) hit(root, node);
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

/** Every piece of module state in `root` (default src/): `{file, line, name, kind, allowed?}`. */
export function moduleState(root = "src", allowed = ALLOWED) {
  const found = [];
  for (const path of files(root)) {
    const file = relative(".", path);
    const source = ts.createSourceFile(path, readFileSync(path, "utf8"), ts.ScriptTarget.Latest, true);
    const lineOf = (node) => source.getLineAndCharacterOfPosition(node.getStart(source)).line + 1;
    const candidates = new Map();
    const collections = new Set();
    for (const statement of source.statements) {
      if (!ts.isVariableStatement(statement)) continue;
      const list = statement.declarationList;
      const isConst = (list.flags & ts.NodeFlags.Const) !== 0;
      for (const decl of list.declarations) {
        const names = ts.isIdentifier(decl.name) ? [decl.name.text] : [decl.name.getText(source)];
        if (!isConst) {
          const kind = list.flags & ts.NodeFlags.Let ? "let" : "var";
          for (const name of names) found.push({ file, line: lineOf(decl), name, kind });
        } else if (ts.isIdentifier(decl.name) && isContainer(decl.initializer)) {
          candidates.set(decl.name.text, lineOf(decl));
          if (isCollection(decl.initializer)) collections.add(decl.name.text);
        }
      }
    }
    for (const [name, at] of mutated(source, candidates, collections))
      found.push({ file, line: candidates.get(name), name, kind: `const mutated at line ${at}` });
    for (const f of found.filter((f) => f.file === file))
      f.allowed = allowed.find((a) => a.file === file && a.name === f.name)?.reason;
  }
  return found;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const found = moduleState();
  for (const f of found)
    console.log(
      `${f.allowed ? "allowed" : "STATE  "}  ${f.file}:${f.line}  ${f.name} (${f.kind})${f.allowed ? `: ${f.allowed}` : ""}`,
    );
  const bad = found.filter((f) => !f.allowed);
  const stale = ALLOWED.filter((a) => !found.some((f) => f.file === a.file && f.name === a.name));
  for (const a of stale) console.log(`stale    ${a.file}  ${a.name}: allowed but no longer found`);
  console.log(
    `${bad.length} pieces of module state in src/ not allowed, ${found.length - bad.length} allowed`,
  );
  if (process.argv.includes("--check") && (bad.length > 0 || stale.length > 0)) {
    console.error(
      "module state leaks between callers and between test files (the suite runs with isolate: false):\n" +
        "pass it in from its owner (a client runtime, a server, the caller), or, for a WeakMap keyed by its\n" +
        "owner or a memo of a pure function, add it to ALLOWED in scripts/module-state.mjs with its reason",
    );
    process.exit(1);
  }
}
