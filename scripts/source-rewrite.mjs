// The one rule for the bundle's edits of a dependency's source (scripts/start-path-plugin.mjs,
// scripts/undici-plugin.mjs, scripts/lru-cache-plugin.mjs): an edit that no longer finds what it
// replaces fails the build, saying what the source no longer does, instead of bundling the file
// unedited or half edited.

/**
 * esbuild's `onLoad` answer for `source` (read from `path`) with each `[pattern, replacement,
 * what]` applied in turn: `bundle: <path> no longer <what>` at the first pattern not found. With
 * `stale`, also an error when it still matches the source with the replaced parts taken out (a use
 * the edits would leave reading a binding they removed).
 */
export function rewriteSource(path, source, rewrites, stale) {
  let text = source;
  let rest = source;
  for (const [pattern, replacement, what] of rewrites) {
    if (typeof pattern === "string" ? !text.includes(pattern) : !pattern.test(text))
      return { errors: [{ text: `bundle: ${path} no longer ${what}` }] };
    text = text.replace(pattern, replacement);
    rest = rest.replace(pattern, "");
  }
  const left = stale?.exec(rest);
  if (left) return { errors: [{ text: `bundle: ${path} also uses ${left[0]}, which the rewrite removes` }] };
  return { contents: text, loader: "js" };
}
