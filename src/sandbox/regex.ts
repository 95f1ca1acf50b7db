/** Tests `value` against a pattern that came from data; a pattern that does not compile matches anything. */
export function matchesPattern(pattern: string, value: string): boolean {
  try {
    return new RegExp(pattern).test(value);
  } catch {
    return true;
  }
}
