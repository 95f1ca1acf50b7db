/**
 * Prints the compatibility table (framework × check × transport) and the token table at the end of
 * `npm run test:clients`, from the tests' own results: ✓ passed, ✗ failed, "skipped: <reason>"
 * (a skip without a reason fails the run).
 * A check may add a note (annotation type "note"); token rows come as annotations of type "tokens".
 */
import type { Reporter, TestCase, TestModule } from "vitest/node";

interface TokenRow {
  framework: string;
  tool: string;
  text: number;
  structured: number;
  total: number;
}

function cell(test: TestCase): { text: string; bad: boolean } {
  const result = test.result();
  const notes = test
    .annotations()
    .filter((a) => a.type === "note")
    .map((a) => a.message);
  const suffix = notes.length > 0 ? ` (${notes.join("; ")})` : "";
  if (result.state === "skipped") {
    return result.note
      ? { text: `skipped: ${result.note}`, bad: false }
      : { text: "skipped: NO REASON", bad: true };
  }
  // An expected failure hides what a framework meets: none may stay in the suite.
  if (test.options.fails) return { text: "✗ (it.fails: make it pass or skip it with a reason)", bad: true };
  if (result.state === "passed") return { text: `✓${suffix}`, bad: false };
  return { text: result.state === "failed" ? "✗" : `? ${result.state}`, bad: result.state !== "failed" };
}

function table(header: string[], rows: string[][]): string {
  const line = (cells: string[]) => `| ${cells.join(" | ")} |`;
  return [line(header), line(header.map(() => "---")), ...rows.map(line)].join("\n");
}

export default class TableReporter implements Reporter {
  onTestRunEnd(modules: ReadonlyArray<TestModule>): void {
    const cells = new Map<string, Map<string, Map<string, string>>>();
    const transports = new Set<string>();
    const tokens: TokenRow[] = [];
    const converted: string[] = [];
    let bad = false;
    for (const module of modules) {
      for (const test of module.children.allTests()) {
        const transport = test.parent.type === "suite" ? test.parent : undefined;
        const framework = transport?.parent.type === "suite" ? transport.parent : undefined;
        if (!transport || !framework) continue;
        transports.add(transport.name);
        const c = cell(test);
        bad ||= c.bad;
        const byCheck = cells.get(framework.name) ?? new Map<string, Map<string, string>>();
        cells.set(framework.name, byCheck);
        const byTransport = byCheck.get(test.name) ?? new Map<string, string>();
        byCheck.set(test.name, byTransport);
        byTransport.set(transport.name, c.text);
        for (const a of test.annotations()) {
          if (a.type === "tokens") tokens.push(JSON.parse(a.message));
          if (a.type === "converted") converted.push(a.message);
        }
      }
    }
    if (cells.size === 0) return;
    const columns = [...transports];
    const rows: string[][] = [];
    for (const [framework, byCheck] of [...cells].sort(([a], [b]) => a.localeCompare(b))) {
      for (const [check, byTransport] of byCheck) {
        rows.push([framework, check, ...columns.map((t) => byTransport.get(t) ?? "skipped: NO REASON")]);
        bad ||= columns.some((t) => !byTransport.has(t));
      }
    }
    const out = [
      "",
      "Compatibility (framework × check × transport)",
      table(["framework", "check", ...columns], rows),
    ];
    if (tokens.length > 0) {
      tokens.sort((a, b) => a.framework.localeCompare(b.framework) || a.tool.localeCompare(b.tool));
      out.push(
        "",
        "Tokens forwarded to the model per tool (gpt-tokenizer; text / structured = the parts of the MCP result that reached the model)",
        table(
          ["framework", "tool", "text", "structured", "total"],
          tokens.map((r) => [r.framework, r.tool, String(r.text), String(r.structured), String(r.total)]),
        ),
      );
    }
    for (const line of converted) {
      const { framework, tool, schema } = JSON.parse(line);
      out.push("", `${framework}: ${tool} as converted`, JSON.stringify(schema));
    }
    process.stdout.write(`${out.join("\n")}\n\n`);
    if (bad) {
      process.stdout.write("A check was skipped without a reason or has no result: see the table.\n");
      process.exitCode = 1;
    }
  }
}
