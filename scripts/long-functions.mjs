#!/usr/bin/env node
/**
 * Functions over 60 lines in src/ (issue 31: "no function over 60 lines, data tables aside").
 * Counts every function, method, constructor, accessor and arrow function with a block body,
 * from its first line to its last (nested functions count inside their parent too, and on
 * their own). Object and array literals are data, not functions, and are not counted.
 *
 *   node scripts/long-functions.mjs          lists every long function, longest first
 *   node scripts/long-functions.mjs --check  the same, and fails on any of them
 *
 * Data tables aside: a table of entries is an object or array literal, which is not counted.
 */
import { readdirSync, readFileSync } from "node:fs";
import { join, relative } from "node:path";
import ts from "typescript";

export const MAX_LINES = 60;

function* files(dir) {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) yield* files(path);
    else if (/\.tsx?$/.test(entry.name) && !entry.name.endsWith(".d.ts")) yield path;
  }
}

function nameOf(node, source) {
  if (node.name) return node.name.getText(source);
  if (ts.isConstructorDeclaration(node)) return "constructor";
  const parent = node.parent;
  if (parent && ts.isVariableDeclaration(parent)) return parent.name.getText(source);
  if (parent && ts.isPropertyAssignment(parent)) return parent.name.getText(source);
  if (parent && ts.isPropertyDeclaration(parent)) return parent.name.getText(source);
  if (parent && ts.isCallExpression(parent))
    return `(callback of ${parent.expression.getText(source).slice(0, 40)})`;
  return "(anonymous)";
}

/** Every function in `root` (default src/) over `max` lines: `{file, line, name, lines}`. */
export function longFunctions(root = "src", max = MAX_LINES) {
  const found = [];
  for (const file of files(root)) {
    const text = readFileSync(file, "utf8");
    const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
    const visit = (node) => {
      if (ts.isFunctionLike(node) && node.body && ts.isBlock(node.body)) {
        const start = source.getLineAndCharacterOfPosition(node.getStart(source)).line;
        const end = source.getLineAndCharacterOfPosition(node.getEnd()).line;
        const lines = end - start + 1;
        if (lines > max)
          found.push({ file: relative(".", file), line: start + 1, name: nameOf(node, source), lines });
      }
      ts.forEachChild(node, visit);
    };
    visit(source);
  }
  return found.sort((a, b) => b.lines - a.lines);
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const found = longFunctions();
  for (const f of found) console.log(`${String(f.lines).padStart(4)}  ${f.file}:${f.line}  ${f.name}`);
  console.log(`${found.length} functions over ${MAX_LINES} lines in src/`);
  if (process.argv.includes("--check") && found.length > 0) {
    console.error(
      `split them into functions with one job each (no function over ${MAX_LINES} lines in src/)`,
    );
    process.exit(1);
  }
}
