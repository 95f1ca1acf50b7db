/**
 * The agent catalog cached on disk between starts: one JSON file per API (base URL + key) under
 * `WEBDATA_CACHE_DIR`. The file name is a hash, so neither the key nor any part of it is stored;
 * the file holds the base URL (to tell caches apart when read by a human), `fetchedAt`, the
 * agent list and the details fetched so far. A file older than the age limit, unreadable or of
 * another shape is ignored.
 */
import { createHash, randomBytes } from "node:crypto";
import { readFileSync } from "node:fs";
import { mkdir, readdir, rename, stat, unlink, writeFile } from "node:fs/promises";
import { homedir, tmpdir } from "node:os";
import { join } from "node:path";
import { z } from "zod";
import { type AgentDetail, AgentDetailSchema, type AgentRecord, AgentRecordSchema } from "../api/schemas.js";

export const CACHE_VERSION = 1;
export const DEFAULT_CACHE_MAX_AGE_MS = 24 * 60 * 60 * 1000;

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

/** `WEBDATA_CACHE_DIR`, else `~/.cache/web-data-mcp` (XDG_CACHE_HOME honoured), else the temp dir. */
export function defaultCacheDir(env: NodeJS.ProcessEnv = process.env): string {
  if (env.XDG_CACHE_HOME) return join(env.XDG_CACHE_HOME, "web-data-mcp");
  let home = "";
  try {
    home = homedir();
  } catch {
    home = "";
  }
  return home ? join(home, ".cache", "web-data-mcp") : join(tmpdir(), "web-data-mcp");
}

export function cacheFile(dir: string, baseUrl: string, apiKey: string): string {
  const id = createHash("sha256").update(`${baseUrl}\n${apiKey}`).digest("hex").slice(0, 24);
  return join(dir, `agents-${id}.json`);
}

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
  if (parsed.fetchedAt > now + 60_000 || now - parsed.fetchedAt > maxAgeMs) return undefined;
  return parsed as CatalogSnapshot;
}

/** Atomic write (temp file + rename), readable by the user only. */
export async function writeCache(file: string, dir: string, snapshot: CatalogSnapshot): Promise<void> {
  await mkdir(dir, { recursive: true, mode: 0o700 });
  const tmp = `${file}.${randomBytes(6).toString("hex")}.tmp`;
  try {
    await writeFile(tmp, JSON.stringify(snapshot), { mode: 0o600 });
    await rename(tmp, file);
  } catch (e) {
    await unlink(tmp).catch(() => {});
    throw e;
  }
}

/**
 * Deletes other catalog caches in `dir` untouched for longer than `maxAgeMs` (they would be
 * ignored anyway): caches of base URLs no longer used, e.g. a sandbox on a past port.
 */
export async function pruneCaches(
  dir: string,
  keep: string,
  maxAgeMs: number,
  now = Date.now(),
): Promise<number> {
  let removed = 0;
  const names = await readdir(dir).catch(() => [] as string[]);
  for (const name of names) {
    if (!/^agents-[0-9a-f]{24}\.json(\.[0-9a-f]+\.tmp)?$/.test(name)) continue;
    const path = join(dir, name);
    if (path === keep) continue;
    const info = await stat(path).catch(() => undefined);
    if (info && now - info.mtimeMs > maxAgeMs) {
      await unlink(path).then(
        () => removed++,
        () => {},
      );
    }
  }
  return removed;
}
