import { linearPattern } from "../agents/linear-pattern.js";

/**
 * Tests `value` against a pattern that came from data, in linear time (RE2); a pattern that does
 * not compile, or needs a backtracking engine, matches anything.
 */
export function matchesPattern(pattern: string, value: string): boolean {
  return linearPattern(pattern)?.test(value) ?? true;
}
