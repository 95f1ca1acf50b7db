import { createHash } from "node:crypto";

/** A stable unsigned 32-bit hash of a string, for deterministic sandbox data. */
export function hash32(text: string): number {
  return createHash("sha1").update(text).digest().readUInt32BE(0);
}

/** A deterministic pseudo-random generator (mulberry32) seeded from a string. */
export function seeded(seed: string): () => number {
  let state = hash32(seed);
  return () => {
    state = (state + 0x6d2b79f5) | 0;
    let t = Math.imul(state ^ (state >>> 15), 1 | state);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** A UUID-shaped id derived from a string (v4 layout), for stable catalog and job ids. */
export function stableUuid(seed: string): string {
  const hex = createHash("sha1").update(seed).digest("hex");
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-4${hex.slice(13, 16)}-a${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
}
