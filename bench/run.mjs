// npm run bench: runs every benchmark module in one process run and prints one table of figures,
// each beside what it is compared with and its target, then writes the table as JSON for tracking.
import { mkdir, writeFile } from "node:fs/promises";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { printTable } from "./table.mjs";

const here = dirname(fileURLToPath(import.meta.url));
const only = process.argv.slice(2);
const modules = ["client", "server", "agents", "soak"].filter((m) => only.length === 0 || only.includes(m));

const rows = [];
for (const name of modules) {
  const started = Date.now();
  process.stderr.write(`bench: ${name}…\n`);
  try {
    const mod = await import(`./${name}.mjs`);
    for (const row of await mod.run()) rows.push({ group: name, ...row });
  } catch (error) {
    rows.push({ group: name, metric: "benchmark failed", value: String(error?.message ?? error), ok: false });
  }
  process.stderr.write(`bench: ${name} done in ${((Date.now() - started) / 1000).toFixed(1)} s\n`);
}

printTable(rows);
const out = join(here, "results", "latest.json");
await mkdir(dirname(out), { recursive: true });
await writeFile(
  out,
  `${JSON.stringify({ at: new Date().toISOString(), node: process.version, rows }, null, 2)}\n`,
);
process.stdout.write(`\nwritten: ${out}\n`);
const failed = rows.filter((r) => r.ok === false).length;
process.stdout.write(`${rows.length - failed} on target, ${failed} off target\n`);
