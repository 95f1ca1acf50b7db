// Shared helpers for the benchmark modules: statistics and one plain-text table.

export function median(values) {
  return percentile(values, 50);
}

export function percentile(values, p) {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const rank = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return sorted[rank];
}

export function round(value, digits = 2) {
  return typeof value === "number" ? Number(value.toFixed(digits)) : value;
}

export function printTable(rows) {
  const columns = ["group", "metric", "value", "unit", "compare", "target", "ok"];
  const cells = rows.map((r) =>
    columns.map((c) => {
      const v = r[c];
      if (c === "ok") return v === undefined ? "" : v ? "yes" : "NO";
      return v === undefined || v === null ? "" : String(typeof v === "number" ? round(v) : v);
    }),
  );
  const widths = columns.map((c, i) => Math.max(c.length, ...cells.map((row) => row[i].length)));
  const line = (values) => `| ${values.map((v, i) => v.padEnd(widths[i])).join(" | ")} |`;
  process.stdout.write(`${line(columns)}\n${line(widths.map((w) => "-".repeat(w)))}\n`);
  for (const row of cells) process.stdout.write(`${line(row)}\n`);
}
