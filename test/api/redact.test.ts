import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  encodedForms,
  hexForms,
  makeRedactor,
  REDACTED,
  Redactor,
  redact,
  redactDeep,
} from "../../src/api/redact.js";

const KEY = "wd_live_4f9a8b7c6d5e4f3a2b1c";

/** True when some run of more than 4 characters of `secret` appears in `text`. */
/** Whether `text` holds a run of `window` characters of `secret` (5; 10 of a hex form: 5 bytes). */
function leaks(text: string, secret: string, window = 5): boolean {
  for (let i = 0; i + window <= secret.length; i++)
    if (text.includes(secret.slice(i, i + window))) return true;
  return false;
}

describe("makeRedactor", () => {
  it("reads its secrets on its first string, not when made (a stdio server makes one as it starts)", () => {
    let reads = 0;
    const secrets = new Proxy([KEY], {
      get(target, name, receiver) {
        reads += 1;
        return Reflect.get(target, name, receiver);
      },
    });
    const redactor = makeRedactor(secrets);
    expect(reads).toBe(0);
    expect(redactor(`key ${KEY}`)).toBe(`key ${REDACTED}`);
    expect(reads).toBeGreaterThan(0);
    const after = reads;
    expect(redactor(KEY.slice(2, 9))).toBe(REDACTED);
    expect(reads).toBe(after);
  });
});

describe("redact", () => {
  it("removes the whole key", () => {
    const out = redact(`invalid key ${KEY} sent`, [KEY]);
    expect(out).toBe(`invalid key ${REDACTED} sent`);
  });

  it("removes any fragment of more than 4 characters of the key", () => {
    for (const fragment of [KEY.slice(3, 8), KEY.slice(10), KEY.slice(0, 12), `xx${KEY.slice(5, 20)}yy`]) {
      const out = redact(`echo: ${fragment}`, [KEY]);
      expect(leaks(out, KEY)).toBe(false);
    }
  });

  it("keeps fragments of 4 characters or less and unrelated text", () => {
    expect(redact("wd_l is short", [KEY])).toBe("wd_l is short");
    expect(redact("nothing here", [KEY])).toBe("nothing here");
  });

  it("ignores secrets too short to redact", () => {
    expect(redact("abcd abcd", ["abcd"])).toBe("abcd abcd");
  });
});

describe("Redactor", () => {
  it("redacts the password of a user:pass credential and added base64 forms", () => {
    const credential = "demo-user:s3cretpassw0rd";
    const encoded = Buffer.from(credential).toString("base64");
    const redactor = new Redactor([KEY, credential]);
    redactor.add(encoded);
    const out = redactor.text(`Basic ${encoded} / s3cretpassw0rd / ${KEY}`);
    expect(leaks(out, encoded)).toBe(false);
    expect(leaks(out, "s3cretpassw0rd")).toBe(false);
    expect(leaks(out, KEY)).toBe(false);
  });

  it("redacts structured values such as a 422 detail list", () => {
    const redactor = new Redactor([KEY]);
    const detail = [{ loc: ["body", "key"], msg: `bad ${KEY}`, type: "value_error", input: KEY }];
    const out = redactor.value(detail);
    expect(leaks(JSON.stringify(out), KEY)).toBe(false);
    expect(out[0].loc).toEqual(["body", "key"]);
  });
});

describe("encoded forms of a secret (issue 23)", () => {
  const secret = "wdk_Enc0dedQZXJVK/+?&=WPRT";
  const redactor = makeRedactor([secret]);
  const bytes = Buffer.from(secret, "utf8");
  const forms: Array<[string, string]> = [
    ["base64", bytes.toString("base64")],
    ["base64url", bytes.toString("base64url")],
    ["hex", bytes.toString("hex")],
    ["HEX", bytes.toString("hex").toUpperCase()],
    ["URL-encoded", encodeURIComponent(secret)],
    // Inside a larger encoded value, the secret's base64 falls on any of the three alignments.
    ["base64 after 1 byte", Buffer.from(`x${secret}`).toString("base64")],
    ["base64 after 2 bytes", Buffer.from(`:x${secret}`).toString("base64")],
    ["Basic credential", Buffer.from(`user:${secret}`).toString("base64")],
  ];

  it.each(forms)("redacts the %s form", (name, encoded) => {
    const out = redactor(`header: ${encoded} end`);
    expect(out).toContain(REDACTED);
    // No run of 5 characters of the encoded form is left (of a hex form, 10: the same 5 bytes),
    // but at its ends (where an encoding mixes in the bytes around the secret).
    const window = /^hex$/i.test(name) ? 10 : 5;
    for (let i = 4; i + 4 + window <= encoded.length; i++)
      expect(out).not.toContain(encoded.slice(i, i + window));
  });

  it("leaves every hex id whole: a hex form is redacted from 10 digits on (5 bytes of the secret)", () => {
    const hex = bytes.toString("hex");
    // Nine digits of the key's hex inside an id: kept (it was cut when hex runs of 5 counted).
    const id = `${hex.slice(6, 15)}-4e2a-9c1b-0d3f5a7b8c9e`;
    expect(redactor(`task ${id}`)).toBe(`task ${id}`);
    expect(redactor(`task ${hex.slice(6, 16)}`)).toBe(`task ${REDACTED}`);
  });

  it("leaves unrelated base64 and hex alone", () => {
    const other = Buffer.from("some other unrelated value").toString("base64");
    expect(redactor(other)).toBe(other);
    expect(redactor("deadbeefcafe0123")).toBe("deadbeefcafe0123");
  });
});

describe("the redactor's scan (issue 33: one pass over a table of the secrets' characters)", () => {
  const secret = "wdk_Enc0dedQZXJVK/+?&=WPRT";
  const redactor = makeRedactor([secret]);
  const forms = [secret, ...encodedForms(secret)];
  const hexes = hexForms(secret);

  it("redacts a fragment at the very start and the very end of the text, and a text that is only the key", () => {
    expect(redactor(`${secret.slice(0, 6)} tail`)).toBe(`${REDACTED} tail`);
    expect(redactor(`head ${secret.slice(-6)}`)).toBe(`head ${REDACTED}`);
    expect(redactor(secret)).toBe(REDACTED);
    expect(redactor(secret.slice(2, 7))).toBe(REDACTED);
  });

  it("redacts two fragments in one run and fragments around characters no secret has", () => {
    const out = redactor(
      `${secret.slice(0, 6)}${secret.slice(10, 16)} ${secret.slice(3, 9)}\u00e9${secret.slice(12)}`,
    );
    for (const form of forms) expect(leaks(out, form)).toBe(false);
    for (const form of hexes) expect(leaks(out, form, 10)).toBe(false);
  });

  it("leaves no run of 5 characters of any form in random text built from pieces of them", () => {
    const piece = fc.oneof(
      fc.string({ maxLength: 8 }),
      fc
        .tuple(fc.constantFrom(...forms, ...hexes), fc.nat(), fc.nat())
        .map(([form, a, b]) => form.slice(a % form.length, (a % form.length) + (b % (form.length + 1)))),
    );
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 8 }), (pieces) => {
        const text = pieces.join("");
        const out = redactor(text);
        for (const form of forms) expect(leaks(out, form)).toBe(false);
        for (const form of hexes) expect(leaks(out, form, 10)).toBe(false);
        // Nothing is touched where no fragment was.
        if (!forms.some((form) => leaks(text, form)) && !hexes.some((form) => leaks(text, form, 10)))
          expect(out).toBe(text);
      }),
      { numRuns: 2_000 },
    );
  });
});

describe("redactDeep", () => {
  const redactor = makeRedactor([KEY]);

  it("returns the same object when nothing in it holds a secret, and a copy with the same order when something does", () => {
    const clean = { status: "done", url: "https://example.com/", nested: [{ a: "text" }, 1, null] };
    expect(redactDeep(clean, redactor)).toBe(clean);
    const dirty = { status: "done", echoed: `key ${KEY}`, [KEY]: 1, list: ["ok", KEY], tail: true };
    const out = redactDeep(dirty, redactor);
    expect(out).not.toBe(dirty);
    expect(Object.keys(out)).toEqual(["status", "echoed", REDACTED, "list", "tail"]);
    expect(out).toEqual({
      status: "done",
      echoed: `key ${REDACTED}`,
      [REDACTED]: 1,
      list: ["ok", REDACTED],
      tail: true,
    });
    expect(dirty.echoed).toBe(`key ${KEY}`);
  });
});
