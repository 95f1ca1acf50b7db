/**
 * A fast secret redactor for tool results and log lines, with the same rule as
 * `src/api/redact.ts`: every run of more than 4 characters of a secret is replaced. It looks a
 * 5-character window up only where 5 characters in a row all occur in a secret.
 */
import { REDACTED } from "../api/redact.js";

const WINDOW = 5;

export type Redact = (text: string) => string;

export function makeRedactor(secrets: readonly string[]): Redact {
  const usable = secrets.filter((s) => s.length >= WINDOW);
  if (usable.length === 0) return (text) => text;
  const grams = new Set<string>();
  const inSecret = new Uint8Array(65_536);
  for (const s of usable) {
    for (let i = 0; i + WINDOW <= s.length; i++) grams.add(s.slice(i, i + WINDOW));
    for (let i = 0; i < s.length; i++) inSecret[s.charCodeAt(i)] = 1;
  }
  // Only a run of WINDOW characters that all occur in a secret can hold a fragment: count runs and
  // look a window up only then, so ordinary text costs one pass with no allocation.
  return (text) => {
    if (text.length < WINDOW) return text;
    let out = "";
    let last = 0;
    let run = 0;
    for (let j = 0; j < text.length; j++) {
      if (inSecret[text.charCodeAt(j)] === 0) {
        run = 0;
        continue;
      }
      run += 1;
      if (run < WINDOW) continue;
      const i = j - WINDOW + 1;
      if (!grams.has(text.slice(i, j + 1))) continue;
      let end = j + 1;
      while (end < text.length && usable.some((s) => s.includes(text.slice(i, end + 1)))) end += 1;
      out += text.slice(last, i) + REDACTED;
      last = end;
      j = end - 1;
      run = 0;
    }
    return last === 0 ? text : out + text.slice(last);
  };
}

/** Redacts every string inside a JSON-like value (a copy only where something changed). */
export function redactDeep<T>(value: T, redact: Redact): T {
  if (typeof value === "string") return redact(value) as T;
  if (Array.isArray(value)) {
    let changed = false;
    const out = value.map((v) => {
      const r = redactDeep(v, redact);
      if (r !== v) changed = true;
      return r;
    });
    return (changed ? out : value) as T;
  }
  if (typeof value === "object" && value !== null) {
    let changed = false;
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) {
      const r = redactDeep(v, redact);
      if (r !== v) changed = true;
      out[k] = r;
    }
    return (changed ? out : value) as T;
  }
  return value;
}
