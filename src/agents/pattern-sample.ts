/**
 * Strings that match a `pattern` from data (an agent rule, a template's JSON Schema), for the
 * examples the server shows when a catalog gives none: randexp's generator, driven by a seeded
 * number source so the same pattern always gives the same strings. Letters and digits first (an
 * example reads better; randexp draws a class's characters from its default range, so a class of
 * other characters gives nothing then), then any printable character. A pattern randexp cannot
 * read gives none.
 * Only generation happens here; checking a value against a pattern stays on the linear engine
 * (`linearPattern`).
 */
import RandExpModule from "randexp";

type RandExpClass = typeof RandExpModule.default;
// randexp is CommonJS: `module.exports` is the class itself (its typings say `export default`).
const RandExp = ((RandExpModule as unknown as { default?: RandExpClass }).default ??
  RandExpModule) as RandExpClass;

/** Repetitions added beyond a quantifier's minimum when it has no maximum (`+`, `*`, `{2,}`). */
const EXTRA_REPEATS = 3;
const MAX_SAMPLE_CHARS = 512;

/** A small seeded generator (mulberry32): deterministic and good enough to vary samples. */
function seeded(seed: string): () => number {
  let h = 1779033703 ^ seed.length;
  for (let i = 0; i < seed.length; i++) {
    h = Math.imul(h ^ seed.charCodeAt(i), 3432918353);
    h = (h << 13) | (h >>> 19);
  }
  let state = h >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function sample(pattern: string, seed: string, alphanumeric: boolean): string | undefined {
  try {
    const gen = new RandExp(pattern);
    const next = seeded(seed);
    gen.max = EXTRA_REPEATS;
    gen.randInt = (a: number, b: number) => a + Math.floor(next() * (b - a + 1));
    if (alphanumeric)
      gen.defaultRange = gen.defaultRange.clone().subtract(32, 126).add(48, 57).add(65, 90).add(97, 122);
    const out = gen.gen();
    return out.length <= MAX_SAMPLE_CHARS ? out : undefined;
  } catch {
    return undefined;
  }
}

/** Up to `count` different strings generated for `pattern` (none when randexp cannot read it). */
export function patternSamples(pattern: string, seed: string, count = 4): string[] {
  const out = new Set<string>();
  for (const alphanumeric of [true, false]) {
    for (let i = 0; i < count; i++) {
      const s = sample(pattern, `${seed}#${i}`, alphanumeric);
      if (s !== undefined) out.add(s);
    }
  }
  return [...out];
}
