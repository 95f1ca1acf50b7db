/**
 * Patterns that come from data (an agent's `pattern` rule, a template's JSON Schema `pattern`)
 * run on RE2 (`re2js`, a pure-JS port): matching takes time linear in the input, so no argument
 * can stall the process the way a backtracking engine does on `^(a+)+$`. A pattern RE2 cannot run
 * (a backreference, a lookaround) is not checked locally; the API still validates it.
 */

import { LRUCache } from "lru-cache";
import { RE2JS } from "re2js";

/**
 * A `RegExp` whose matching is RE2's. zod's `.regex()` calls `test`, and its JSON Schema output
 * reads `source`, so the advertised schema keeps the pattern as the catalog wrote it.
 */
class LinearRegExp extends RegExp {
  readonly #re2: RE2JS;

  constructor(pattern: string, re2: RE2JS) {
    super(pattern);
    this.#re2 = re2;
  }

  override test(input: string): boolean {
    return this.#re2.test(input);
  }

  override exec(input: string): RegExpExecArray | null {
    return this.#re2.exec(input) as RegExpExecArray | null;
  }
}

const MAX_CACHED = 256;
/** Compiled patterns, `{}` for one RE2 cannot run (the least recently used dropped). */
const compiled = new LRUCache<string, { regexp?: RegExp }>({ max: MAX_CACHED });

/** The pattern as a linear-time `RegExp`, or undefined when RE2 cannot run it (or it is not a pattern). */
export function linearPattern(pattern: string): RegExp | undefined {
  let hit = compiled.get(pattern);
  if (!hit) {
    try {
      hit = { regexp: new LinearRegExp(pattern, RE2JS.compile(RE2JS.translateRegExp(pattern))) };
    } catch {
      hit = {};
    }
    compiled.set(pattern, hit);
  }
  return hit.regexp;
}
