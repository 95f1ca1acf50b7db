// Regenerates the README's tools table from the registry (build first; `npm run docs` does).
// `--check` changes nothing and exits 1 when the README's table is stale.
import { readFileSync, writeFileSync } from "node:fs";
import {
  loadRegistryTools,
  replaceBetween,
  TABLE_END,
  TABLE_START,
  tableIn,
  toolsTable,
} from "./registry-docs.mjs";

const path = new URL("../README.md", import.meta.url);
const readme = readFileSync(path, "utf8");
const table = toolsTable(await loadRegistryTools());

if (tableIn(readme) === table) {
  console.log("README.md: tools table up to date");
} else if (process.argv.includes("--check")) {
  console.error("README.md: tools table is stale; run npm run docs");
  process.exit(1);
} else {
  writeFileSync(path, replaceBetween(readme, TABLE_START, TABLE_END, table));
  console.log("README.md: tools table regenerated from the registry");
}
