/**
 * What the run's timing parts share: the committed durations file, a file's timing there, and where
 * the workers note each file's CPU. Kept apart from heaviest-first.ts because the setup file
 * (file-cpu.ts) runs in every worker, once per file with isolation on, and heaviest-first.ts
 * imports `vitest/node` (vite and its bundlers: about 0.4 s of CPU per import).
 */
import { tmpdir } from "node:os";
import { join } from "node:path";

export const DURATIONS_FILE = new URL("./durations.json", import.meta.url);

/** A file's wall time in seconds and its CPU (its worker's and its child processes'). */
export interface FileTiming {
  s: number;
  cpu?: number;
}

/** Where a run's workers (children of `runner`) note each file's CPU for the reporter. */
export const fileCpuLog = (runner: number) => join(tmpdir(), `web-data-mcp-file-cpu-${runner}.jsonl`);
