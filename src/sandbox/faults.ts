/**
 * Fault injection. Faults come from three places, all with the same meaning:
 * - `sandbox.faults.add(fault)` in process;
 * - `POST /_sandbox/faults` with a Fault as JSON body (out of process);
 * - the request header `X-Sandbox-Fault: kind;key=value;...`, e.g.
 *   `rate_limit;count=2;retry_after=1`, `status;status=503`, `latency;ms=200`, `reset;after=accept`.
 *   Keys: count, ms, status, retry_after, after. Without `count` every request carrying the header
 *   gets the fault. With `count=N` the first N requests carrying that exact header value get it
 *   and later ones pass, so a client that resends the same headers on retry sees N failures.
 *
 * A fault with `count` is used up by the next `count` matching requests (or, for task_error and
 * crawl_fail, by the next `count` tasks or crawls created by matching requests).
 */
import type { Fault, FaultController, FaultKind } from "./types.js";

export const FAULT_HEADER = "x-sandbox-fault";

/**
 * Whether a fault's `match` takes "METHOD /path": a substring of it, or, ending in `$`, its end
 * (`GET /v2/jobs/runs/r1$` is the run, not its artifacts).
 */
const matches = (match: string | undefined, target: string) =>
  match === undefined || (match.endsWith("$") ? target.endsWith(match.slice(0, -1)) : target.includes(match));

const KINDS: readonly FaultKind[] = [
  "latency",
  "rate_limit",
  "status",
  "reset",
  "malformed",
  "task_error",
  "crawl_fail",
];
const MAX_REMEMBERED_HEADERS = 10_000;
const STATUSES = [400, 401, 402, 404, 422, 429, 500, 502, 503, 504];

interface ActiveFault {
  fault: Fault;
  remaining: number;
}

/** A fault given from outside that is valid (`faultProblem` finds nothing wrong). */
export const isFault = (value: unknown): value is Fault => faultProblem(value) === undefined;

/** Checks a fault given from outside; returns an error message or undefined when valid. */
export function faultProblem(value: unknown): string | undefined {
  if (typeof value !== "object" || value === null) return "fault must be an object";
  const f = value as Record<string, unknown>;
  if (!KINDS.includes(f.kind as FaultKind)) return `kind must be one of ${KINDS.join(", ")}`;
  const positive = (k: string) => f[k] === undefined || (typeof f[k] === "number" && (f[k] as number) >= 0);
  for (const k of ["ms", "retryAfter"]) if (!positive(k)) return `${k} must be a number >= 0`;
  if (f.count !== undefined && !(Number.isInteger(f.count) && (f.count as number) >= 1)) {
    return "count must be an integer >= 1";
  }
  if (f.kind === "status" && !STATUSES.includes(f.status as number)) {
    return `status must be one of ${STATUSES.join(", ")}`;
  }
  if (f.match !== undefined && typeof f.match !== "string") return "match must be a string";
  if (f.after !== undefined && f.after !== "accept") return 'after must be "accept"';
  return undefined;
}

/** Parses the X-Sandbox-Fault header; undefined when it does not describe a valid fault. */
export function parseFaultHeader(header: string): Fault | undefined {
  const [kind, ...pairs] = header.split(";").map((s) => s.trim());
  const fault: Record<string, unknown> = { kind };
  for (const pair of pairs) {
    const [key, raw] = pair.split("=").map((s) => s.trim());
    if (key === "after" || key === "match") fault[key] = raw;
    else if (key === "retry_after") fault.retryAfter = Number(raw);
    else if (key === "count" || key === "ms" || key === "status") fault[key] = Number(raw);
  }
  return isFault(fault) ? fault : undefined;
}

export class Faults implements FaultController {
  private active: ActiveFault[] = [];
  /** Header value → uses left, for headers that carry a count. */
  private readonly headerUses = new Map<string, number>();
  /** Ends of the latency holds under way: `clear()` lets every held request go on at once. */
  private readonly holds = new Set<() => void>();

  add(fault: Fault): void {
    const problem = faultProblem(fault);
    if (problem) throw new TypeError(`invalid fault: ${problem}`);
    this.active.push({ fault: { ...fault }, remaining: fault.count ?? Number.POSITIVE_INFINITY });
  }

  clear(): void {
    this.active = [];
    this.headerUses.clear();
    for (const release of [...this.holds]) release();
  }

  /** Holds a request for a latency fault: until `sleep` ends or the faults are cleared. */
  hold(sleep: Promise<void>): Promise<void> {
    return new Promise((resolve) => {
      const release = () => {
        this.holds.delete(release);
        resolve();
      };
      this.holds.add(release);
      sleep.then(release);
    });
  }

  list(): Fault[] {
    return this.active.map((a) => ({ ...a.fault }));
  }

  /**
   * Takes (and uses up one count of) the first fault of one of `kinds` matching "METHOD /path".
   * The request's X-Sandbox-Fault header, when it names one of `kinds`, wins.
   */
  take(kinds: readonly FaultKind[], target: string, header?: string): Fault | undefined {
    if (header) {
      const fromHeader = this.takeFromHeader(kinds, target, header);
      if (fromHeader) return fromHeader;
    }
    const index = this.active.findIndex(
      (a) => kinds.includes(a.fault.kind) && matches(a.fault.match, target),
    );
    if (index < 0) return undefined;
    const hit = this.active[index];
    hit.remaining -= 1;
    if (hit.remaining <= 0) this.active.splice(index, 1);
    return hit.fault;
  }

  private takeFromHeader(kinds: readonly FaultKind[], target: string, header: string): Fault | undefined {
    const fault = parseFaultHeader(header);
    if (!fault || !kinds.includes(fault.kind)) return undefined;
    if (!matches(fault.match, target)) return undefined;
    if (fault.count === undefined) return fault;
    const left = this.headerUses.get(header) ?? fault.count;
    if (left <= 0) return undefined;
    if (this.headerUses.size >= MAX_REMEMBERED_HEADERS) this.headerUses.clear();
    this.headerUses.set(header, left - 1);
    return fault;
  }
}
