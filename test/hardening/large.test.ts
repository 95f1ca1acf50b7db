/**
 * Large results: a 20 MB page through `extract_page` comes back cut at `max_chars` (plus a short
 * header and the read-on line), the rest readable through `get_task` at the offset it names, and
 * the server keeps serving. The memory this costs is measured by `npm run bench` (soak module).
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { inputJsonSchema } from "../../src/server/tool-schemas.js";
import { extractPage } from "../../src/tools/extract-page.js";
import { crashLines, type Hardened, harden, secretLeaks, textOf } from "./harness.js";

/** Header line ("# url (HTTP 200)") plus the "[cut at …; read on with get_task …]" line. */
const OVERHEAD = 600;

let h: Hardened;
/** The largest max_chars extract_page takes (from its exact input schema). */
const largest = (inputJsonSchema(extractPage) as { properties: { max_chars: { maximum: number } } })
  .properties.max_chars.maximum;
beforeAll(async () => {
  h = await harden({ waitMs: 60_000, slackMs: 60_000 });
}, 60_000);
afterAll(async () => {
  if (!h) return;
  try {
    expect(crashLines(h.server.stderr())).toEqual([]);
    expect(secretLeaks(h.captured(), h.key)).toEqual([]);
  } finally {
    await h.close();
  }
});

describe("a 20 MB page through extract_page", () => {
  it.each([
    { max_chars: 200, render: false },
    { max_chars: 5_000, render: false },
    { max_chars: "the largest allowed", render: true },
  ])(
    "with max_chars $max_chars (render $render) returns at most max_chars plus a short overhead",
    async ({ max_chars: asked, render }) => {
      const max_chars = typeof asked === "number" ? asked : largest;
      const url = `${h.sandbox.siteUrl}/large?mb=20`;
      const r = await h.call("extract_page", { url, max_chars, render });
      expect(r.isError, textOf(r).slice(0, 300)).toBeFalsy();
      const text = textOf(r);
      expect(text.length).toBeGreaterThan(max_chars / 2);
      expect(text.length).toBeLessThanOrEqual(max_chars + OVERHEAD);
      // structuredContent carries the body cut as in the text, and stays bounded the same way
      // whatever the page's size (JSON escaping aside).
      expect(Number(r.structuredContent?.chars)).toBeLessThanOrEqual(max_chars);
      expect(r.structuredContent?.content).toHaveLength(Number(r.structuredContent?.chars));
      const { content: _body, ...rest } = r.structuredContent ?? {};
      expect(JSON.stringify(rest).length).toBeLessThanOrEqual(OVERHEAD);
      expect(text).toMatch(/get_task/);

      // The rest is readable at the offset the result names, cut the same way.
      const taskId = String(r.structuredContent?.task_id);
      const next = await h.call("get_task", { task_id: taskId, offset: max_chars, max_chars });
      expect(next.isError, textOf(next).slice(0, 300)).toBeFalsy();
      expect(textOf(next).length).toBeLessThanOrEqual(max_chars + OVERHEAD);
      expect(textOf(next)).toMatch(/Paragraph \d+/);
    },
    120_000,
  );

  it("leaves the server serving normal calls", async () => {
    await h.server.client.ping();
    const r = await h.call("extract_page", { url: `${h.sandbox.siteUrl}/about` });
    expect(r.isError).toBeFalsy();
    expect(textOf(r)).toMatch(/About us/);
  });
});
