/**
 * With `TEST_DURATIONS=write` (`npm run test:durations`): each test file's CPU, its worker's own
 * during the file plus the child processes it reaped (Linux's /proc/self/stat; elsewhere the
 * worker's alone), appended as one JSON line to `fileCpuLog(parent pid)` for the slowest-files
 * reporter to write into durations.json beside the file's wall time. Nothing otherwise.
 */
import { appendFileSync, readFileSync } from "node:fs";
import { afterAll, expect } from "vitest";
import { fileCpuLog } from "./file-timings.js";

/** CPU seconds of the children this process has waited for (0 where /proc is not there). */
function reapedChildren(): number {
  try {
    const stat = readFileSync("/proc/self/stat", "utf8");
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    return (Number(fields[13]) + Number(fields[14])) / 100;
  } catch {
    return 0;
  }
}

if (process.env.TEST_DURATIONS === "write") {
  const own = process.cpuUsage();
  const children = reapedChildren();
  afterAll(() => {
    const used = process.cpuUsage(own);
    const cpu = (used.user + used.system) / 1e6 + reapedChildren() - children;
    const file = expect.getState().testPath;
    if (file) appendFileSync(fileCpuLog(process.ppid), `${JSON.stringify({ file, cpu })}\n`);
  });
}
