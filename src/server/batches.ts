/**
 * JSON-RPC batches (a JSON array of messages): the 2025-03-26 revision of MCP had them, 2025-06-18
 * removed them, so a session on a later revision gets one clear `-32600` instead of 100 calls run
 * from one POST. On stdio the SDK never read an array in any revision; the guard says so in words.
 */

/** The first protocol revision without JSON-RPC batches. */
export const FIRST_REVISION_WITHOUT_BATCHES = "2025-06-18";

/** Whether a session on `revision` (YYYY-MM-DD) may send a batch. */
export const batchesAllowed = (revision: string): boolean => revision < FIRST_REVISION_WITHOUT_BATCHES;

/** The `-32600` message for a batch on `revision`. */
export function batchRefusal(revision: string): string {
  return `Invalid Request: JSON-RPC batches are not supported in protocol revision ${revision} (they were removed in ${FIRST_REVISION_WITHOUT_BATCHES}); send one request per POST`;
}

/** The stdio answer to a line holding a JSON array. */
export const STDIO_BATCH_REFUSAL =
  "Invalid Request: JSON-RPC batches (a JSON array) are not supported; send one message per line";

interface Issue {
  code?: string;
  path?: readonly PropertyKey[];
  message?: string;
  errors?: Issue[][];
}

/**
 * True when the SDK's message schema refused a line because it is an array: every branch of the
 * union says "expected object, received array" at the top (zod's own words, pinned by a test).
 */
export function refusedAsArray(error: Error): boolean {
  const issues = (error as { issues?: Issue[] }).issues;
  const [union] = issues ?? [];
  if (!union || issues?.length !== 1 || union.code !== "invalid_union" || !union.errors?.length) return false;
  return union.errors.every((branch) =>
    branch.some((i) => i.path?.length === 0 && /received array/.test(i.message ?? "")),
  );
}
