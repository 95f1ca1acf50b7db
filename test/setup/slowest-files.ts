/**
 * A vitest reporter that prints the ten slowest test files at the end of the run (wall time of
 * each file in its worker: import, setup and tests), so a file that slows the suite shows itself.
 */
import type { Reporter, TestModule } from "vitest/node";

const SHOWN = 10;

export default class SlowestFiles implements Reporter {
  onTestRunEnd(modules: ReadonlyArray<TestModule>): void {
    const timed = modules.map((m) => {
      const d = m.diagnostic();
      return {
        file: m.relativeModuleId,
        ms: d.environmentSetupDuration + d.prepareDuration + d.setupDuration + d.collectDuration + d.duration,
      };
    });
    const slowest = timed.sort((a, b) => b.ms - a.ms).slice(0, SHOWN);
    if (slowest.length === 0) return;
    const width = Math.max(...slowest.map((s) => s.file.length));
    const lines = slowest.map((s) => `  ${s.file.padEnd(width)}  ${(s.ms / 1000).toFixed(1).padStart(6)} s`);
    process.stdout.write(`\n Slowest ${slowest.length} test files\n${lines.join("\n")}\n`);
  }
}
