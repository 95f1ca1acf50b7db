/**
 * The test run's output carries only the runner's lines: what code under test writes straight to
 * the worker's stdout/stderr (in-process servers' log lines, libraries' warnings, Node warnings)
 * goes through the console instead, which vitest shows only for a failing test
 * (`silent: "passed-only"` in vitest.config.ts).
 */
const through =
  (log: (text: string) => void) =>
  (chunk: string | Uint8Array, encoding?: unknown, callback?: unknown): boolean => {
    const text = typeof chunk === "string" ? chunk : Buffer.from(chunk).toString("utf8");
    log(text.replace(/\n$/, ""));
    const done = typeof encoding === "function" ? encoding : callback;
    if (typeof done === "function") queueMicrotask(() => done());
    return true;
  };

// Once per worker: with `isolate: false` a worker runs this again for each of its files.
const QUIETED = Symbol.for("web-data-mcp.test.quiet-output");
const marked = globalThis as { [QUIETED]?: true };
if (!marked[QUIETED]) {
  marked[QUIETED] = true;
  process.stdout.write = through((t) => console.log(t)) as typeof process.stdout.write;
  process.stderr.write = through((t) => console.error(t)) as typeof process.stderr.write;
}
