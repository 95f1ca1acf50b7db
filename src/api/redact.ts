/**
 * Secret redaction. Every message the client builds passes through a `Redactor` holding the
 * API key and the legacy credential, so no run of more than 4 characters of a secret can reach
 * an error message, a log line or a tool result.
 */

export const REDACTED = "[redacted]";
/** Runs of at most this many characters of a secret may remain (too short to identify it). */
const MAX_VISIBLE = 4;

/** Replaces every run of more than 4 consecutive characters of any secret found in `text`. */
export function redact(text: string, secrets: readonly string[]): string {
  const usable = secrets.filter((s) => s.length > MAX_VISIBLE);
  if (usable.length === 0 || text.length <= MAX_VISIBLE) return text;
  let out = "";
  let i = 0;
  while (i < text.length) {
    const end = longestSecretRunAt(text, i, usable);
    if (end > i) {
      out += REDACTED;
      i = end;
    } else {
      out += text[i];
      i += 1;
    }
  }
  return out;
}

/** End index of the longest substring of a secret (longer than 4 chars) starting at `start`, or `start`. */
function longestSecretRunAt(text: string, start: number, secrets: readonly string[]): number {
  let best = start;
  for (const secret of secrets) {
    let end = start + MAX_VISIBLE + 1;
    if (end > text.length || !secret.includes(text.slice(start, end))) continue;
    while (end < text.length && secret.includes(text.slice(start, end + 1))) end += 1;
    if (end > best) best = end;
  }
  return best;
}

/** Holds the secrets of one client and redacts strings and JSON-able values with them. */
export class Redactor {
  readonly #secrets: string[];

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
  }

  text(value: string): string {
    return redact(value, this.#secrets);
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
