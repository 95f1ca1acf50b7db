/**
 * Full-Unicode strings and web URLs for property tests, without fast-check's own: its first
 * `unit: "binary"` string or `fc.webUrl()` (whose path and query segments are full Unicode)
 * builds a map of all 1.1 million code points, about 1.5–1.9 s of CPU in every worker process
 * that runs a fuzz file. The values range over the same code points (every one but the UTF-16
 * surrogates, uniformly) and the URLs are valid web URLs with percent-encoded Unicode in their
 * path, query and fragment.
 */
import fc from "fast-check";

const SURROGATES = 0xe000 - 0xd800;

/** One Unicode code point other than a surrogate, as a string (what `unit: "binary"` draws). */
export const anyCodePoint: fc.Arbitrary<string> = fc
  .integer({ min: 0, max: 0x10ffff - SURROGATES })
  .map((n) => String.fromCodePoint(n < 0xd800 ? n : n + SURROGATES));

/** `fc.string({ unit: "binary", ... })` without fast-check's code point map. */
export const unicodeString = (constraints: { minLength?: number; maxLength?: number } = {}) =>
  fc.string({ unit: anyCodePoint, ...constraints });

const encoded = (maxLength: number, minLength = 0) =>
  unicodeString({ minLength, maxLength }).map(encodeURIComponent);

/**
 * A web URL like `fc.webUrl({ withQueryParameters, withFragments })`: http or https, a domain, an
 * optional port, up to four path segments, and optionally a query and a fragment.
 */
export function webUrl(options: { withQueryParameters?: boolean; withFragments?: boolean } = {}) {
  const query = fc.array(fc.tuple(encoded(6, 1), encoded(8)), { maxLength: 3 });
  return fc
    .record({
      scheme: fc.constantFrom("http", "https"),
      domain: fc.domain(),
      port: fc.option(fc.integer({ min: 1, max: 65_535 }), { nil: undefined }),
      path: fc.array(encoded(10), { maxLength: 4 }),
      query: options.withQueryParameters ? query : fc.constant<[string, string][]>([]),
      fragment: options.withFragments ? fc.option(encoded(8), { nil: undefined }) : fc.constant(undefined),
    })
    .map(({ scheme, domain, port, path, query, fragment }) => {
      const authority = port === undefined ? domain : `${domain}:${port}`;
      const search = query.length > 0 ? `?${query.map(([k, v]) => `${k}=${v}`).join("&")}` : "";
      return `${scheme}://${authority}/${path.join("/")}${search}${fragment === undefined ? "" : `#${fragment}`}`;
    });
}
