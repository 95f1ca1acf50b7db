/**
 * A fast secret redactor for tool results and log lines, with the same rule as
 * `src/api/redact.ts`: every run of more than 4 characters of a secret is replaced. It looks up
 * 5-character windows in a set first, so text without secret fragments costs one pass.
 */
import { REDACTED } from "../api/redact.js";

const WINDOW = 5;

export type Redact = (text: string) => string;

export function makeRedactor(secrets: readonly string[]): Redact {
  const usable = secrets.filter((s) => s.length >= WINDOW);
  if (usable.length === 0) return (text) => text;
  const grams = new Set<string>();
  for (const s of usable) for (let i = 0; i + WINDOW <= s.length; i++) grams.add(s.slice(i, i + WINDOW));
  return (text) => {
    if (text.length < WINDOW) return text;
    let out = "";
    let last = 0;
    let i = 0;
    while (i + WINDOW <= text.length) {
      if (!grams.has(text.slice(i, i + WINDOW))) {
        i += 1;
        continue;
      }
      let end = i + WINDOW;
      while (end < text.length && usable.some((s) => s.includes(text.slice(i, end + 1)))) end += 1;
      out += text.slice(last, i) + REDACTED;
      last = end;
      i = end;
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
