/** Turning an extract request into a task: target status, driver, failure, and result data. */
import type { SandboxState } from "./context.js";
import { pageData } from "./formats.js";
import { fetchTarget, targetStatus } from "./site/fetch.js";
import type { StoredTask } from "./tasks.js";

export interface ExtractInput {
  url: string;
  render?: boolean;
  formats?: string[];
  country?: string;
  callback_url?: string;
}

export interface Submission {
  /** "METHOD /path" of the request, for fault matching. */
  target: string;
  faultHeader?: string;
  batchId?: string;
  delayMs: number;
  /** A given task id (the demo task); default a random UUID. */
  id?: string;
}

/** A screenshot needs a browser, so it forces rendering (driver vx8). */
export const extractDriver = (input: ExtractInput) =>
  input.render || input.formats?.includes("screenshot") ? "vx8" : "vx6";

export function createExtractTask(state: SandboxState, input: ExtractInput, sub: Submission): StoredTask {
  const where = state.location;
  const failure = state.failureFor(input.url, sub.target, sub.faultHeader);
  return state.tasks.create(
    {
      apiType: "extract",
      input,
      url: input.url,
      batchId: sub.batchId,
      delayMs: sub.delayMs,
      failure,
      statusCode: failure ? undefined : targetStatus(input.url, where),
      callbackUrl: input.callback_url,
      driver: extractDriver(input),
      data: () => {
        const page = fetchTarget(input.url, where, state.largePages);
        return page.ok ? pageData(page, input.formats) : {};
      },
    },
    Date.now(),
    sub.id,
  );
}

/** Completion delay of the i-th of n batch tasks: spread over one extra latency, so progress is visible. */
export function staggeredDelay(latencyMs: number, index: number, size: number): number {
  return latencyMs + Math.round((latencyMs * index) / Math.max(1, size));
}
