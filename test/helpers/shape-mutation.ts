/**
 * Random damage to a documented response body for the response-shape property tests: `null`s,
 * extra members and unknown strings where the spec lists values, injected anywhere except in the
 * members a tool needs (`needed`); optionally (`dropP`, `typeP`) members left out and values of
 * the wrong type, for tests that drive the tools themselves and only ask that they fail well.
 * Deterministic per seed, so a failing case replays.
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

export type Mutation = {
  nullP: number;
  extraP: number;
  enumP: number;
  word: string;
  /** Odds that an unprotected member is left out. */
  dropP?: number;
  /** Odds that an unprotected member's value is one of another JSON type. */
  typeP?: number;
};

/** A value of another JSON type than `value`'s, picked by `rnd`. */
function wrongType(value: unknown, rnd: () => number): unknown {
  const kind = (v: unknown) => (Array.isArray(v) ? "array" : v === null ? "null" : typeof v);
  const others = [0, -1.5, "", "x", true, [], ["x"], {}, { a: 1 }].filter((v) => kind(v) !== kind(value));
  return others[Math.floor(rnd() * others.length)];
}

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
      const free = !protectedPath(
        c,
        p.map((s) => (/^\d+$/.test(s) ? "*" : s)),
      );
      if (free && m.dropP !== undefined && rnd() < m.dropP) continue;
      if (free && m.typeP !== undefined && rnd() < m.typeP) {
        out[k] = wrongType(v, rnd);
      } else if (free && rnd() < m.nullP) {
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

/**
 * Damage for tests that drive the tools: every member may also be left out or of the wrong type
 * (pass a case with no `needed` paths to let it reach any member).
 */
export const fullDamageArb = fc
  .tuple(
    damageArb,
    fc.double({ min: 0, max: 0.5, noNaN: true }),
    fc.double({ min: 0, max: 0.5, noNaN: true }),
  )
  .map(([damage, dropP, typeP]) => ({ ...damage, dropP, typeP }));

/** Every path of a string value in `value` ("*" for array entries): to let `enumP` reach them all. */
export function stringPaths(value: unknown, path: string[] = []): string[][] {
  if (typeof value === "string") return [path];
  if (Array.isArray(value)) return value.flatMap((v) => stringPaths(v, [...path, "*"]));
  if (typeof value === "object" && value !== null)
    return Object.entries(value).flatMap(([k, v]) => stringPaths(v, [...path, k]));
  return [];
}
