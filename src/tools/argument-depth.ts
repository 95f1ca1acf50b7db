/**
 * How deep a tool's arguments nest, measured without recursion, before anything else reads them:
 * the checks after it (zod, the wording of a bad value, the request body sent upstream) recurse,
 * so a value nested 100,000 levels deep would overflow the stack there. No tool takes anything
 * near the limit; deeper arguments are refused as an `invalid_argument` naming it.
 */

/** The deepest nesting of objects and arrays a call's arguments may have (the arguments object is level 1). */
export const MAX_ARGUMENT_DEPTH = 64;

/** True when `value` nests objects or arrays more than `limit` levels deep. Iterative: any depth is safe. */
export function nestsDeeperThan(value: unknown, limit: number): boolean {
  const stack: Array<[unknown, number]> = [[value, 1]];
  while (stack.length > 0) {
    const [node, depth] = stack.pop() as [unknown, number];
    if (typeof node !== "object" || node === null) continue;
    if (depth > limit) return true;
    for (const child of Array.isArray(node) ? node : Object.values(node)) {
      if (typeof child === "object" && child !== null) stack.push([child, depth + 1]);
    }
  }
  return false;
}

/** The problem line for arguments nested too deep, or undefined. */
export function depthProblem(args: unknown, limit = MAX_ARGUMENT_DEPTH): string | undefined {
  if (!nestsDeeperThan(args, limit)) return undefined;
  return `the arguments nest objects or arrays more than ${limit} levels deep; send a flatter value (at most ${limit} levels)`;
}
