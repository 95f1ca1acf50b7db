/**
 * Secret redaction, the one rule everywhere: every run of more than 4 characters of a secret, or
 * of its base64, base64url or URL-encoded form, is replaced, and of its hex form every run of more
 * than 9 (the same 5 bytes of the secret: two hex digits a byte). With 5 there, any key's hex form
 * shared a run with about one hex id in 1,200 (task ids, UUIDs, digests), which came back cut.
 * Every message the client builds passes through a `Redactor` holding the API key and the legacy
 * credential; the server redacts tool results and log lines with `makeRedactor`.
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
/** The same for a secret's hex form: as many bytes of the secret, two digits each. */
const HEX_WINDOW = 2 * WINDOW;

export type Redact = (text: string) => string;

/** Leading and trailing characters of a base64 form that also hold bits of the bytes around it. */
const BASE64_EDGE = 4;

/** A secret's hex form in either case (redacted from runs of HEX_WINDOW characters). */
export function hexForms(secret: string): string[] {
  const hex = Buffer.from(secret, "utf8").toString("hex");
  return [hex, hex.toUpperCase()];
}

/**
 * The forms a secret travels in besides itself and its hex (`hexForms`): URL-encoded, and base64
 * and base64url at each of the three byte alignments it can have inside a larger encoded value (a
 * Basic credential, a token), without the edge characters an alignment shares with its neighbours.
 */
export function encodedForms(secret: string): string[] {
  const bytes = Buffer.from(secret, "utf8");
  const forms = [encodeURIComponent(secret)];
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
 * The redactor of a set of secrets, made once and applied to many strings. Its tables are built
 * on its first string: a stdio server makes one as it starts but first uses it on a tool's answer
 * or a log line, after the handshake, and building them was 1.9 ms of the start's CPU profile
 * (docs/benchmarks.md, issue 33).
 */
export function makeRedactor(secrets: readonly string[]): Redact {
  let built: Redact | undefined;
  return (text) => {
    built ??= buildRedactor(secrets);
    return built(text);
  };
}

function buildRedactor(secrets: readonly string[]): Redact {
  const plain = secrets.filter((s) => s.length >= WINDOW);
  const texts = scanner({ forms: [...plain, ...plain.flatMap(encodedForms)], window: WINDOW });
  const hex = scanner({ forms: plain.flatMap(hexForms), window: HEX_WINDOW });
  return (text) => hex(texts(text));
}

/** Forms of the secrets replaced from runs of `window` characters of any of them. */
interface FormGroup {
  forms: readonly string[];
  window: number;
}

/** The multiplier of the windows' rolling hash (FNV's 32-bit prime). */
const MUL = 0x01000193;
/** Bits of a window's hash that index a group's table of the windows its forms have. */
const TABLE_BITS = 16;
const TABLE_MASK = (1 << TABLE_BITS) - 1;

/** The hash of `text[i, i + window)`: a polynomial of its UTF-16 code units, modulo 2^32. */
function windowHash(text: string, i: number, window: number): number {
  let h = 0;
  for (let k = 0; k < window; k++) h = (Math.imul(h, MUL) + text.charCodeAt(i + k)) | 0;
  return h;
}

/**
 * A group's usable forms and its tables: the characters they hold (by UTF-16 code unit, up to
 * `top`), every `window`-character piece of them, and a bit table by those pieces' hashes: a
 * window of a text is hashed as it rolls along (no string made), and looked up as a string only
 * when its bit is set.
 */
function prepare({ forms, window }: FormGroup) {
  const usable = [...new Set(forms)].filter((s) => s.length >= window);
  let top = 0;
  for (const s of usable) for (let i = 0; i < s.length; i++) top = Math.max(top, s.charCodeAt(i));
  const inForms = new Uint8Array(top + 1);
  const grams = new Set<string>();
  const table = new Uint8Array(1 << (TABLE_BITS - 3));
  for (const s of usable) {
    for (let i = 0; i < s.length; i++) inForms[s.charCodeAt(i)] = 1;
    for (let i = 0; i + window <= s.length; i++) {
      grams.add(s.slice(i, i + window));
      const slot = windowHash(s, i, window) & TABLE_MASK;
      table[slot >> 3] = (table[slot >> 3] as number) | (1 << (slot & 7));
    }
  }
  let outgoing = 1;
  for (let k = 1; k < window; k++) outgoing = Math.imul(outgoing, MUL);
  return { usable, window, top, inForms, grams, table, outgoing };
}

type Prepared = ReturnType<typeof prepare>;

/**
 * Where, in `text[runStart, runEnd)`, runs of `group.window` or more characters of one of its
 * forms are: pushed to `spans` as start, end pairs (the longest run from each leftmost start).
 */
function findSpans(text: string, runStart: number, runEnd: number, group: Prepared, spans: number[]): void {
  const { window, grams, usable, table, outgoing } = group;
  let h = 0;
  let hashedAt = -2;
  for (let i = runStart; i + window <= runEnd; i++) {
    // Rolled on from the window before, or hashed afresh after a match.
    h =
      hashedAt === i - 1
        ? (Math.imul(h - Math.imul(text.charCodeAt(i - 1), outgoing), MUL) +
            text.charCodeAt(i + window - 1)) |
          0
        : windowHash(text, i, window);
    hashedAt = i;
    const slot = h & TABLE_MASK;
    if (((table[slot >> 3] as number) & (1 << (slot & 7))) === 0 || !grams.has(text.slice(i, i + window)))
      continue;
    let end = i + window;
    while (end < runEnd && usable.some((s) => s.includes(text.slice(i, end + 1)))) end += 1;
    spans.push(i, end);
    i = end - 1;
  }
}

/** `text` with each span (in order, none overlapping) replaced by REDACTED. */
function replaceSpans(text: string, spans: number[]): string {
  let out = "";
  let last = 0;
  for (let k = 0; k < spans.length; k += 2) {
    out += text.slice(last, spans[k]) + REDACTED;
    last = spans[k + 1] as number;
  }
  return out + text.slice(last);
}

/**
 * Replaces every run of `window` or more characters of any of the group's forms. It looks a
 * window up only where `window` characters in a row all occur in a form.
 */
function scanner(group: FormGroup): Redact {
  const prepared = prepare(group);
  const { usable, window, top, inForms } = prepared;
  if (usable.length === 0) return (text) => text;
  // Only a run of window characters that all occur in a form can hold a fragment. The table of
  // those characters finds such runs in one pass with no allocation, about three times faster
  // than a regular expression of the same class (per call, a tool result's redaction:
  // docs/benchmarks.md, issue 33); windows are looked up only inside a run.
  return (text) => {
    const length = text.length;
    if (length < window) return text;
    let spans: number[] | undefined;
    let runStart = 0;
    for (let i = 0; i <= length; i++) {
      const c = i < length ? text.charCodeAt(i) : -1;
      if (c >= 0 && c <= top && inForms[c] === 1) continue;
      if (i - runStart >= window) {
        spans ??= [];
        findSpans(text, runStart, i, prepared, spans);
      }
      runStart = i + 1;
    }
    return spans === undefined || spans.length === 0 ? text : replaceSpans(text, spans);
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
