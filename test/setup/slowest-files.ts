/**
 * A vitest reporter that prints the 20 slowest test files at the end of the run (wall time of
 * each file in its worker: import, setup and tests), so a file that slows the suite shows itself.
 * With `TEST_DURATIONS=write` (`npm run test:durations`) it also writes every file's duration to
 * `durations.json`, which orders the files of a run that has no vitest cache (heaviest-first.ts).
 */
import { writeFileSync } from "node:fs";
import type { Reporter, TestModule } from "vitest/node";
import { DURATIONS_FILE } from "./heaviest-first.js";

/** As many as docs/testing.md's table of the slowest files and what each waits on. */
const SHOWN = 20;

export default class SlowestFiles implements Reporter {
  onTestRunEnd(modules: ReadonlyArray<TestModule>): void {
    const timed = modules.map((m) => {
      const d = m.diagnostic();
      return {
        file: m.relativeModuleId,
        ms: d.environmentSetupDuration + d.prepareDuration + d.setupDuration + d.collectDuration + d.duration,
      };
    });
    timed.sort((a, b) => b.ms - a.ms);
    if (process.env.TEST_DURATIONS === "write") {
      const seconds = Object.fromEntries(timed.map((t) => [t.file, Math.round(t.ms / 100) / 10]));
      writeFileSync(DURATIONS_FILE, `${JSON.stringify(seconds, null, 2)}\n`);
    }
    const slowest = timed.slice(0, SHOWN);
    if (slowest.length === 0) return;
    const width = Math.max(...slowest.map((s) => s.file.length));
    const lines = slowest.map((s) => `  ${s.file.padEnd(width)}  ${(s.ms / 1000).toFixed(1).padStart(6)} s`);
    process.stdout.write(`\n Slowest ${slowest.length} test files\n${lines.join("\n")}\n`);
  }
}
