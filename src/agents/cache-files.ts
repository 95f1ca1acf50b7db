/**
 * Where the agent catalog's disk cache and its tool-list sidecar live, and how a file there is
 * written. Node built-ins only (no zod): the stdio fast front reads these files before the full
 * server is loaded. The file names are a hash of base URL + key, so the key is never stored.
 */
import { createHash, randomBytes } from "node:crypto";
// fs.promises is read where it is used: in the CommonJS runtime bundle that loads node:fs/promises
// (and the nine of Node's internal modules it requires: readline, watchers, dir…) on the first write,
// not when the runtime loads for a server's first call.
import { promises as fsp } from "node:fs";
import { join } from "node:path";
import { type Config, defaultCacheDir } from "../config.js";

export const CACHE_VERSION = 1;
export const DEFAULT_CACHE_MAX_AGE_MS = 24 * 60 * 60 * 1000;

export interface CacheLocation {
  dir: string;
  /** The catalog cache (`agents-<id>.json`). */
  file: string;
  maxAgeMs: number;
}

export function cacheFile(dir: string, baseUrl: string, apiKey: string): string {
  const id = createHash("sha256").update(`${baseUrl}\n${apiKey}`).digest("hex").slice(0, 24);
  return join(dir, `agents-${id}.json`);
}

/** A cache fetched this long ago is used: not over the age limit, not over a minute ahead. */
export const withinAge = (fetchedAt: number, maxAgeMs: number, now: number) =>
  fetchedAt <= now + 60_000 && now - fetchedAt <= maxAgeMs;

/** The tool-list sidecar of a catalog cache file: same id, `agents-<id>.tools.json`. */
export const toolListFile = (catalogFile: string) => catalogFile.replace(/\.json$/, ".tools.json");

/**
 * The disk cache this config uses, or none: the in-process sandbox listens on a new port every
 * start, so its cache could never be read again; none is kept unless WEBDATA_CACHE_DIR asks.
 */
export function catalogCacheLocation(
  config: Pick<Config, "sandbox" | "cacheDir" | "baseUrl" | "apiKey">,
): CacheLocation | undefined {
  if (config.sandbox && config.cacheDir === undefined) return undefined;
  const dir = config.cacheDir ?? defaultCacheDir();
  return { dir, file: cacheFile(dir, config.baseUrl, config.apiKey), maxAgeMs: DEFAULT_CACHE_MAX_AGE_MS };
}

/** Atomic write (temp file + rename), readable by the user only. */
export async function writeFileAtomic(file: string, dir: string, text: string): Promise<void> {
  await fsp.mkdir(dir, { recursive: true, mode: 0o700 });
  const tmp = `${file}.${randomBytes(6).toString("hex")}.tmp`;
  try {
    await fsp.writeFile(tmp, text, { mode: 0o600 });
    await fsp.rename(tmp, file);
  } catch (e) {
    await fsp.unlink(tmp).catch(() => {});
    throw e;
  }
}
