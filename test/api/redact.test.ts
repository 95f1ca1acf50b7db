import { describe, expect, it } from "vitest";
import { makeRedactor, REDACTED, Redactor, redact } from "../../src/api/redact.js";

const KEY = "wd_live_4f9a8b7c6d5e4f3a2b1c";

/** True when some run of more than 4 characters of `secret` appears in `text`. */
function leaks(text: string, secret: string): boolean {
  for (let i = 0; i + 5 <= secret.length; i++) if (text.includes(secret.slice(i, i + 5))) return true;
  return false;
}

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

  it.each(forms)("redacts the %s form", (_name, encoded) => {
    const out = redactor(`header: ${encoded} end`);
    expect(out).toContain(REDACTED);
    // No run of 5 characters of the encoded form is left, but at its ends (where an encoding
    // mixes in the bytes around the secret).
    for (let i = 4; i + 9 <= encoded.length; i++) expect(out).not.toContain(encoded.slice(i, i + 5));
  });

  it("leaves unrelated base64 and hex alone", () => {
    const other = Buffer.from("some other unrelated value").toString("base64");
    expect(redactor(other)).toBe(other);
    expect(redactor("deadbeefcafe0123")).toBe("deadbeefcafe0123");
  });
});
