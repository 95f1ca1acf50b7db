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

/** Redacts every string inside a JSON-like value, member names too (a copy only where something changed). */
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
      // A member's name is returned as much as its value (an echoed key can be either).
      const name = redact(k);
      const r = redactDeep(v, redact);
      if (r !== v || name !== k) changed = true;
      out[name] = r;
    }
    return (changed ? out : value) as T;
  }
  return value;
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
