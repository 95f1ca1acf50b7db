/** "Did you mean": the candidate nearest to what was typed (edit distance, fastest-levenshtein). */
import { distance } from "fastest-levenshtein";

/**
 * The nearest candidate; ties go to the first. Case-insensitive; one containing the other counts
 * as nearly equal. With `maxDistance`, nothing is returned when even the nearest is further.
 */
export function nearest(
  typed: string,
  candidates: readonly string[],
  maxDistance?: number,
): string | undefined {
  let best: string | undefined;
  let bestDistance = Number.POSITIVE_INFINITY;
  const t = typed.toLowerCase();
  for (const c of candidates) {
    const d = c.toLowerCase().includes(t) || t.includes(c.toLowerCase()) ? 0.5 : distance(t, c.toLowerCase());
    if (d < bestDistance) {
      best = c;
      bestDistance = d;
    }
  }
  return maxDistance === undefined || bestDistance <= maxDistance ? best : undefined;
}
