/**
 * Random damage to a documented response body for the response-shape property tests: `null`s,
 * extra members and unknown strings where the spec lists values, injected anywhere except in the
 * members a tool needs (`needed`). Deterministic per seed, so a failing case replays.
 */
import fc from "fast-check";

export interface ShapeCase {
  body: unknown;
  /** Paths ("*" = every array entry) the tools need: never nulled. */
  needed: string[][];
  /** Paths whose string value is one of a listed set in the spec. */
  enums: string[][];
}

const matches = (pattern: string[], path: string[]) =>
  pattern.length === path.length && pattern.every((p, i) => p === "*" || p === path[i]);
/** `path` is a needed path or lies on the way to one. */
const protectedPath = (c: ShapeCase, path: string[]) =>
  c.needed.some((n) => path.length <= n.length && matches(n.slice(0, path.length), path));

export type Mutation = { nullP: number; extraP: number; enumP: number; word: string };

/** The body with nulls, extra members and unknown enum strings injected (deterministic per seed). */
export function mutate(
  c: ShapeCase,
  value: unknown,
  path: string[],
  m: Mutation,
  rnd: () => number,
): unknown {
  if (Array.isArray(value)) return value.map((v, i) => mutate(c, v, [...path, String(i)], m, rnd));
  if (typeof value === "object" && value !== null) {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) {
      const p = [...path, k];
      if (
        !protectedPath(
          c,
          p.map((s) => (/^\d+$/.test(s) ? "*" : s)),
        ) &&
        rnd() < m.nullP
      ) {
        out[k] = null;
      } else {
        out[k] = mutate(c, v, p, m, rnd);
      }
    }
    if (rnd() < m.extraP) out[`x_new_${m.word}`] = { nested: [1, null, "x"], flag: null };
    return out;
  }
  const generic = path.map((s) => (/^\d+$/.test(s) ? "*" : s));
  if (typeof value === "string" && c.enums.some((e) => matches(e, generic)) && rnd() < m.enumP) {
    return `UNKNOWN_${m.word}`;
  }
  return value;
}

export function seeded(seed: number): () => number {
  let s = seed >>> 0 || 1;
  return () => {
    s ^= s << 13;
    s ^= s >>> 17;
    s ^= s << 5;
    return (s >>> 0) / 2 ** 32;
  };
}

/** fast-check's arbitrary of one damage: a seed, the three odds and the word unknown names carry. */
export const damageArb = fc.record({
  seed: fc.integer(),
  nullP: fc.double({ min: 0, max: 1, noNaN: true }),
  extraP: fc.double({ min: 0, max: 1, noNaN: true }),
  enumP: fc.double({ min: 0, max: 1, noNaN: true }),
  word: fc.string({ minLength: 1, maxLength: 12 }),
});

/** The case's body damaged by one draw of `damageArb`. */
export const damaged = (c: ShapeCase, { seed, ...m }: Damage) => mutate(c, c.body, [], m, seeded(seed));
export type Damage = Mutation & { seed: number };
