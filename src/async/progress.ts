/**
 * Progress values for MCP `notifications/progress`: strictly increasing, one per poll, even when
 * the underlying count has not moved (then the value creeps toward the next whole unit). Until
 * the work is done the value stays below `total`; the final report is exactly `total`.
 */
export interface Progress {
  progress: number;
  total?: number;
  message: string;
}

export class ProgressTracker {
  #last = Number.NEGATIVE_INFINITY;

  /** The progress to report for an observed `count` (completed items, elapsed seconds…). */
  next(count: number, total: number | undefined, message: string, final = false): Progress {
    const knownTotal = total !== undefined && total > 0 ? total : undefined;
    // A count is capped at 2^53 - 1 so that a finite value above it always remains: at
    // Number.MAX_VALUE (an event's step, say) the next strictly larger value would be Infinity.
    let value = Number.isFinite(count) ? Math.min(count, Number.MAX_SAFE_INTEGER) : 0;
    if (knownTotal !== undefined) value = final ? knownTotal : Math.min(value, knownTotal - 1);
    if (!(value > this.#last)) {
      // Halve the gap to the next whole unit above the last value: increasing, never reaching it.
      const ceiling = Math.floor(this.#last) + 1;
      value = this.#last + (ceiling - this.#last) / 2;
      // Past 2^52 (a count read off an event, say) half a unit is below a double's precision: the
      // smallest step that still is one.
      if (!(value > this.#last))
        value = this.#last + Math.max(Math.abs(this.#last) * Number.EPSILON, Number.MIN_VALUE);
    }
    this.#last = value;
    return knownTotal === undefined
      ? { progress: value, message }
      : { progress: value, total: knownTotal, message };
  }
}
