/**
 * A vitest reporter that prints the 20 slowest test files at the end of the run (wall time of
 * each file in its worker: import, setup and tests), so a file that slows the suite shows itself.
 * With `TEST_DURATIONS=write` (`npm run test:durations`) it also writes every file's duration to
 * `durations.json`, which orders the files of a run that has no vitest cache (heaviest-first.ts).
 */
import { existsSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import type { Reporter, TestModule } from "vitest/node";
import { DURATIONS_FILE, type FileTiming, fileCpuLog } from "./file-timings.js";

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
    if (process.env.TEST_DURATIONS === "write") writeDurations(timed);
    const slowest = timed.slice(0, SHOWN);
    if (slowest.length === 0) return;
    const width = Math.max(...slowest.map((s) => s.file.length));
    const lines = slowest.map((s) => `  ${s.file.padEnd(width)}  ${(s.ms / 1000).toFixed(1).padStart(6)} s`);
    process.stdout.write(`\n Slowest ${slowest.length} test files\n${lines.join("\n")}\n`);
  }
}

/** durations.json: each file's wall time, and its CPU as test/setup/file-cpu.ts noted it. */
function writeDurations(timed: ReadonlyArray<{ file: string; ms: number }>): void {
  const log = fileCpuLog(process.pid);
  const cpu = new Map<string, number>();
  if (existsSync(log)) {
    for (const line of readFileSync(log, "utf8").split("\n").filter(Boolean)) {
      const noted = JSON.parse(line) as { file: string; cpu: number };
      cpu.set(noted.file, noted.cpu);
    }
    rmSync(log, { force: true });
  }
  const round = (n: number) => Math.round(n * 10) / 10;
  const root = process.cwd();
  const timings = Object.fromEntries(
    timed.map((t): [string, FileTiming] => {
      const used = cpu.get(`${root}/${t.file}`);
      return [t.file, { s: round(t.ms / 1000), ...(used === undefined ? {} : { cpu: round(used) }) }];
    }),
  );
  writeFileSync(DURATIONS_FILE, `${JSON.stringify(timings, null, 2)}\n`);
}
