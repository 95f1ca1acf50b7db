/**
 * Secret redaction, the one rule everywhere: every run of more than 4 characters of a secret, or
 * of its base64, base64url, hex or URL-encoded form, is replaced. Every message the client builds passes through a `Redactor` holding the API key and
 * the legacy credential; the server redacts tool results and log lines with `makeRedactor`.
 */

export const REDACTED = "[redacted]";
/** Runs of at most this many characters of a secret may remain (too short to identify it). */
const MAX_VISIBLE = 4;

/** Replaces every run of more than 4 consecutive characters of any secret found in `text`. */
export function redact(text: string, secrets: readonly string[]): string {
  return makeRedactor(secrets)(text);
}

/** The shortest run of a secret that is replaced (runs of MAX_VISIBLE characters may remain). */
const WINDOW = MAX_VISIBLE + 1;

export type Redact = (text: string) => string;

/** Leading and trailing characters of a base64 form that also hold bits of the bytes around it. */
const BASE64_EDGE = 4;

/**
 * The forms a secret travels in besides itself: hex (either case), URL-encoded, and base64 and
 * base64url at each of the three byte alignments it can have inside a larger encoded value (a
 * Basic credential, a token), without the edge characters an alignment shares with its neighbours.
 */
export function encodedForms(secret: string): string[] {
  const bytes = Buffer.from(secret, "utf8");
  const hex = bytes.toString("hex");
  const forms = [hex, hex.toUpperCase(), encodeURIComponent(secret)];
  for (let offset = 0; offset < 3; offset++) {
    const shifted = Buffer.concat([Buffer.alloc(offset), bytes]);
    for (const encoding of ["base64", "base64url"] as const) {
      const encoded = shifted.toString(encoding).replace(/=+$/, "");
      forms.push(encoded.slice(offset === 0 ? 0 : BASE64_EDGE, -BASE64_EDGE));
    }
  }
  return forms.filter((f) => f !== secret);
}

/**
 * The redactor of a set of secrets, made once and applied to many strings. It looks a 5-character
 * window up only where 5 characters in a row all occur in a secret.
 */
export function makeRedactor(secrets: readonly string[]): Redact {
  const plain = secrets.filter((s) => s.length >= WINDOW);
  const usable = [...new Set([...plain, ...plain.flatMap(encodedForms)])].filter((s) => s.length >= WINDOW);
  if (usable.length === 0) return (text) => text;
  const grams = new Set<string>();
  let top = 0;
  for (const s of usable) {
    for (let i = 0; i + WINDOW <= s.length; i++) grams.add(s.slice(i, i + WINDOW));
    for (let i = 0; i < s.length; i++) top = Math.max(top, s.charCodeAt(i));
  }
  // Only a run of WINDOW characters that all occur in a secret can hold a fragment. A table of
  // those characters (by UTF-16 code unit) finds such runs in one pass with no allocation, about
  // three times faster than a regular expression of the same class (per call, a tool result's
  // redaction: docs/benchmarks.md, issue 33); windows are looked up only inside a run.
  const inSecret = new Uint8Array(top + 1);
  for (const s of usable) for (let i = 0; i < s.length; i++) inSecret[s.charCodeAt(i)] = 1;
  const replaceFrom = (
    text: string,
    runStart: number,
    runEnd: number,
    done: { out: string; last: number },
  ) => {
    for (let i = runStart; i + WINDOW <= runEnd; i++) {
      if (!grams.has(text.slice(i, i + WINDOW))) continue;
      let end = i + WINDOW;
      while (end < runEnd && usable.some((s) => s.includes(text.slice(i, end + 1)))) end += 1;
      done.out += text.slice(done.last, i) + REDACTED;
      done.last = end;
      i = end - 1;
    }
  };
  return (text) => {
    const length = text.length;
    if (length < WINDOW) return text;
    let done: { out: string; last: number } | undefined;
    let runStart = 0;
    for (let i = 0; i <= length; i++) {
      const c = i < length ? text.charCodeAt(i) : -1;
      if (c >= 0 && c <= top && inSecret[c] === 1) continue;
      if (i - runStart >= WINDOW) {
        done ??= { out: "", last: 0 };
        replaceFrom(text, runStart, i, done);
      }
      runStart = i + 1;
    }
    return done === undefined || done.last === 0 ? text : done.out + text.slice(done.last);
  };
}

/** Redacts every string inside a JSON-like value, member names too (a copy only where something changed). */
export function redactDeep<T>(value: T, redact: Redact): T {
  if (typeof value === "string") return redact(value) as T;
  if (typeof value !== "object" || value === null) return value;
  if (Array.isArray(value)) {
    let out: unknown[] | undefined;
    for (let i = 0; i < value.length; i++) {
      const r = redactDeep(value[i], redact);
      if (r !== value[i]) out ??= value.slice(0, i);
      out?.push(r);
    }
    return (out ?? value) as T;
  }
  // Walked without Object.entries and copied only from the first change: a result is redacted on
  // every call, and nearly always nothing in it changes.
  const source = value as Record<string, unknown>;
  const keys = Object.keys(source);
  let out: Record<string, unknown> | undefined;
  for (let i = 0; i < keys.length; i++) {
    const k = keys[i] as string;
    const v = source[k];
    // A member's name is returned as much as its value (an echoed key can be either).
    const name = redact(k);
    const r = redactDeep(v, redact);
    if (out === undefined && (r !== v || name !== k)) {
      out = {};
      for (let j = 0; j < i; j++) out[keys[j] as string] = source[keys[j] as string];
    }
    if (out !== undefined) out[name] = r;
  }
  return (out ?? value) as T;
}

/** Holds the secrets of one client and redacts strings and JSON-able values with them. */
export class Redactor {
  readonly #secrets: string[];
  #redact: Redact | undefined;

  constructor(secrets: ReadonlyArray<string | undefined>) {
    const list: string[] = [];
    for (const secret of secrets) {
      if (!secret) continue;
      list.push(secret);
      // A Basic credential also travels base64-encoded, and its password alone is a secret.
      const colon = secret.indexOf(":");
      if (colon >= 0) list.push(secret.slice(colon + 1));
    }
    this.#secrets = list;
  }

  /** Adds derived secrets (such as the base64 form of a credential) after construction. */
  add(secret: string): void {
    this.#secrets.push(secret);
    this.#redact = undefined;
  }

  text(value: string): string {
    this.#redact ??= makeRedactor(this.#secrets);
    return this.#redact(value);
  }

  /** Redacts a JSON-able value (e.g. a 422 `detail` list) by its serialized form. */
  value<T>(value: T): T {
    if (value === undefined) return value;
    try {
      const serialized = JSON.stringify(value);
      const cleaned = this.text(serialized);
      return cleaned === serialized ? value : (JSON.parse(cleaned) as T);
    } catch {
      // Never hand back an unredacted value: dropping it is the safe failure.
      return undefined as T;
    }
  }
}
