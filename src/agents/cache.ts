/**
 * The agent catalog cached on disk between starts: one JSON file per API (base URL + key) under
 * `WEBDATA_CACHE_DIR`. The file name is a hash, so neither the key nor any part of it is stored;
 * the file holds the base URL (to tell caches apart when read by a human), `fetchedAt`, the
 * agent list and the details fetched so far. A file older than the age limit, unreadable or of
 * another shape is ignored.
 */
// fs.promises read where it is used, as in ./cache-files.ts.
import { promises as fsp, readFileSync } from "node:fs";
import { join } from "node:path";
import { z } from "zod";
import { type AgentDetail, AgentDetailSchema, type AgentRecord, AgentRecordSchema } from "../api/schemas.js";
import { CACHE_VERSION, toolListFile, withinAge, writeFileAtomic } from "./cache-files.js";

// The locations live in a zod-free module (the stdio fast front reads them); kept importable here.
export { CACHE_VERSION, cacheFile, DEFAULT_CACHE_MAX_AGE_MS } from "./cache-files.js";

export interface CatalogSnapshot {
  version: typeof CACHE_VERSION;
  baseUrl: string;
  /** ms epoch of the last complete fetch of the list. */
  fetchedAt: number;
  agents: AgentRecord[];
  details: Record<string, AgentDetail>;
}

const SnapshotSchema = z.object({
  version: z.literal(CACHE_VERSION),
  baseUrl: z.string(),
  fetchedAt: z.number(),
  agents: z.array(AgentRecordSchema),
  details: z.record(z.string(), AgentDetailSchema),
});

/**
 * Reads the cache synchronously: it runs once at start-up, before the transport is connected,
 * so the very first `tools/list` already has the cached agent tools.
 */
export function readCache(
  file: string,
  baseUrl: string,
  maxAgeMs: number,
  now = Date.now(),
): CatalogSnapshot | undefined {
  let raw: string;
  try {
    raw = readFileSync(file, "utf8");
  } catch {
    return undefined;
  }
  let parsed: z.infer<typeof SnapshotSchema>;
  try {
    const result = SnapshotSchema.safeParse(JSON.parse(raw));
    if (!result.success) return undefined;
    parsed = result.data;
  } catch {
    return undefined;
  }
  if (parsed.baseUrl !== baseUrl) return undefined;
  if (!withinAge(parsed.fetchedAt, maxAgeMs, now)) return undefined;
  return parsed as CatalogSnapshot;
}

/** Atomic write (temp file + rename), readable by the user only. */
export function writeCache(file: string, dir: string, snapshot: CatalogSnapshot): Promise<void> {
  return writeFileAtomic(file, dir, JSON.stringify(snapshot));
}

/**
 * Deletes other catalog caches (and their tool-list sidecars) in `dir` untouched for longer than
 * `maxAgeMs` (they would be ignored anyway): caches of base URLs no longer used, e.g. a sandbox
 * on a past port.
 */
export async function pruneCaches(
  dir: string,
  keep: string,
  maxAgeMs: number,
  now = Date.now(),
): Promise<number> {
  let removed = 0;
  const names = await fsp.readdir(dir).catch(() => [] as string[]);
  for (const name of names) {
    if (!/^agents-[0-9a-f]{24}(\.tools)?\.json(\.[0-9a-f]+\.tmp)?$/.test(name)) continue;
    const path = join(dir, name);
    if (path === keep || path === toolListFile(keep)) continue;
    const info = await fsp.stat(path).catch(() => undefined);
    if (info && now - info.mtimeMs > maxAgeMs) {
      await fsp.unlink(path).then(
        () => removed++,
        () => {},
      );
    }
  }
  return removed;
}
