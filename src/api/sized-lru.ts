import { LRUCache } from "lru-cache";

/**
 * A least-recently-used cache of at most `entries` entries. Bounded by a size of one per entry
 * rather than lru-cache's `max`, which allocates every slot up front (20,000 remembered ids: ~5 ms
 * of a first call's wait; 50,000 sandbox tasks: ~10 ms of each sandbox's start); the same eviction.
 */
export function sizedLru<K extends {}, V extends {}>(entries: number): LRUCache<K, V> {
  return new LRUCache<K, V>({ maxSize: entries, sizeCalculation: () => 1 });
}
