/**
 * Runs the slowest test files first, so the parallel workers finish together instead of waiting
 * on a long file that started last. vitest orders by the durations in its own cache, but a fresh
 * clone has none and it falls back to file size, which puts the 4-line fault-matrix and fuzzing
 * files (among the slowest) last. Without a cached duration, a file's duration comes from
 * `durations.json`, written by `npm run test:durations` (the slowest-files reporter).
 */
import { readFileSync } from "node:fs";
import { relative } from "node:path";
import { BaseSequencer, type TestSpecification } from "vitest/node";

export const DURATIONS_FILE = new URL("./durations.json", import.meta.url);

function committedDurations(): Record<string, number> {
  try {
    return JSON.parse(readFileSync(DURATIONS_FILE, "utf8")) as Record<string, number>;
  } catch {
    return {};
  }
}

export default class HeaviestFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const ordered = await super.sort(files);
    const committed = committedDurations();
    const root = this.ctx.config.root;
    const ms = (spec: TestSpecification) => {
      const file = relative(root, spec.moduleId);
      const cached = this.ctx.cache.getFileTestResults(`${spec.project.name}:${file}`)?.duration;
      return cached ?? (committed[file] ?? 0) * 1000;
    };
    return ordered
      .map((spec, i) => ({ spec, i, ms: ms(spec) }))
      .sort((a, b) => b.ms - a.ms || a.i - b.i)
      .map(({ spec }) => spec);
  }
}
