// npm run bench: runs every benchmark module in one process run and prints one table of figures,
// each beside what it is compared with and its target, then writes the table as JSON for tracking.
import { mkdir, writeFile } from "node:fs/promises";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { printTable } from "./table.mjs";

const here = dirname(fileURLToPath(import.meta.url));
const only = process.argv.slice(2);
const GROUPS = [
  "client",
  "server",
  "agents",
  "soak",
  "telemetry",
  "shell",
  "fleet",
  "attack",
  "tokens",
  "generations",
  "peers",
];
const modules = GROUPS.filter((m) => only.length === 0 || only.includes(m));
const unknown = only.filter((m) => !modules.includes(m));
if (unknown.length > 0) {
  process.stderr.write(`bench: no group ${unknown.join(", ")}; the groups: ${GROUPS.join(", ")}\n`);
  process.exit(2);
}

const rows = [];
for (const name of modules) {
  const started = Date.now();
  process.stderr.write(`bench: ${name}…\n`);
  try {
    const mod = await import(`./${name}.mjs`);
    for (const row of await mod.run()) rows.push({ group: name, ...row });
  } catch (error) {
    rows.push({
      group: name,
      metric: "benchmark failed",
      value: String(error?.message ?? error),
      compare: "",
      target: "runs",
      ok: false,
    });
  }
  process.stderr.write(`bench: ${name} done in ${((Date.now() - started) / 1000).toFixed(1)} s\n`);
}

// Every figure is read beside what it is compared with and its target: list any row without them.
const gaps = rows.filter((r) => r.compare === undefined || r.target === undefined || r.ok === undefined);
for (const r of gaps) {
  const missing = ["compare", "target", "ok"].filter((k) => r[k] === undefined).join(", ");
  r.note = `no ${missing}`;
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
if (gaps.length > 0) {
  process.stdout.write(`${gaps.length} rows lack a comparison, target or verdict:\n`);
  for (const r of gaps) process.stdout.write(`  ${r.group}: ${r.metric} (${r.note})\n`);
}
