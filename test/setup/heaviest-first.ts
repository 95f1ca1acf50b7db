/**
 * The order of a run's files, so the workers keep both cores busy and finish together. vitest
 * orders by the durations in its own cache, but a fresh clone has none and it falls back to file
 * size, which puts the 4-line fault-matrix and fuzzing files (among the slowest) last. Without a
 * cached duration, a file's duration comes from `durations.json`, written by
 * `npm run test:durations` (the slowest-files reporter), with the file's CPU beside it.
 *
 * Slowest first alone started the run with the files that mostly wait (deadlines, retry backoff,
 * Redis's timeout: a tenth of their time on a core) in most workers at once: the cores were half
 * idle from 15 to 45 s into a run. So after the slowest file, files that wait and files that work
 * alternate, two that work to one that waits, each kind slowest first.
 */
import { readFileSync } from "node:fs";
import { relative } from "node:path";
import { BaseSequencer, type TestSpecification } from "vitest/node";
import { DURATIONS_FILE, type FileTiming } from "./file-timings.js";

/** A file that spends less than this share of its wall time on a core mostly waits. */
const WAITING_SHARE = 0.25;

function committedDurations(): Record<string, FileTiming> {
  try {
    return JSON.parse(readFileSync(DURATIONS_FILE, "utf8")) as Record<string, FileTiming>;
  } catch {
    return {};
  }
}

/** `working` and `waiting` (each slowest first) merged two to one, after `first`. */
function interleave<T>(first: T[], working: T[], waiting: T[]): T[] {
  const out = [...first];
  while (working.length > 0 || waiting.length > 0) {
    out.push(...working.splice(0, 2));
    out.push(...waiting.splice(0, 1));
  }
  return out;
}

export default class HeaviestFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const ordered = await super.sort(files);
    const committed = committedDurations();
    const root = this.ctx.config.root;
    const timed = ordered
      .map((spec, i) => {
        const file = relative(root, spec.moduleId);
        const cached = this.ctx.cache.getFileTestResults(`${spec.project.name}:${file}`)?.duration;
        const known = committed[file];
        const ms = cached ?? (known?.s ?? 0) * 1000;
        const waits = known?.cpu !== undefined && known.cpu < WAITING_SHARE * known.s;
        return { spec, i, ms, waits };
      })
      .sort((a, b) => b.ms - a.ms || a.i - b.i);
    const [slowest, ...rest] = timed;
    return interleave(
      slowest ? [slowest] : [],
      rest.filter((t) => !t.waits),
      rest.filter((t) => t.waits),
    ).map(({ spec }) => spec);
  }
}
