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
  const chars = new Set<number>();
  for (const s of usable) {
    for (let i = 0; i + WINDOW <= s.length; i++) grams.add(s.slice(i, i + WINDOW));
    for (let i = 0; i < s.length; i++) chars.add(s.charCodeAt(i));
  }
  // Only a run of WINDOW characters that all occur in a secret can hold a fragment. The regular
  // expression finds such runs (compiled, far faster than a loop in JS), so ordinary text costs
  // one scan with no allocation; windows are looked up only inside a run.
  const unit = (c: number) => `\\u${c.toString(16).padStart(4, "0")}`;
  const runs = new RegExp(`[${[...chars].map(unit).join("")}]{${WINDOW},}`, "g");
  return (text) => {
    if (text.length < WINDOW) return text;
    runs.lastIndex = 0;
    let out = "";
    let last = 0;
    for (let run = runs.exec(text); run !== null; run = runs.exec(text)) {
      const runEnd = run.index + run[0].length;
      for (let i = run.index; i + WINDOW <= runEnd; i++) {
        if (!grams.has(text.slice(i, i + WINDOW))) continue;
        let end = i + WINDOW;
        while (end < runEnd && usable.some((s) => s.includes(text.slice(i, end + 1)))) end += 1;
        out += text.slice(last, i) + REDACTED;
        last = end;
        i = end - 1;
      }
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
