/**
 * Keys for the sandboxes the CLI starts (in process for `--sandbox`, the shell sandbox for
 * `call --sandbox`). A key is a secret the server redacts from everything it returns, down to any
 * five characters in a row (src/api/redact.ts): its letters never occur in hex, so no task id,
 * UUID or digest can hold a run of them (a hex key turned about one task id in 1,200 into
 * `7[redacted]70-…`), and no five of them in a row spell a word.
 */
import { randomInt } from "node:crypto";

const ALPHABET = "ghjkmnpqrstvwxzGHJKMNPQRSTVWXZ";

/** `prefix` then 24 letters of the alphabet above, from the OS's random source. */
export function sandboxKey(prefix = ""): string {
  let key = prefix;
  for (let i = 0; i < 24; i++) key += ALPHABET[randomInt(ALPHABET.length)];
  return key;
}
