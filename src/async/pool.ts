/**
 * The one bounded-concurrency helper: runs `fn` over `items`, at most `limit` at a time, in order of
 * start; no new item starts once `more()` says no. Rejects with the first error `fn` throws (the
 * items in flight then still finish).
 */
export async function forEachLimit<T>(
  items: readonly T[],
  limit: number,
  fn: (item: T) => Promise<void>,
  more: () => boolean = () => true,
): Promise<void> {
  let next = 0;
  const worker = async () => {
    while (next < items.length && more()) await fn(items[next++]);
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(limit, items.length)) }, worker));
}
