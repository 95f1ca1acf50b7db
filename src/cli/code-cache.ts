/**
 * Loads a CommonJS bundle (dist/stdio.cjs, scripts/bundle.mjs) with V8's code cache: the first
 * run compiles it and writes what V8 compiled by then (at exit: the start path and the handshake's
 * code) to a file under the cache dir; later runs hand that back to V8 instead of compiling. Node 20 has no cache for ES modules (`module.enableCompileCache()` is Node ≥ 22.1),
 * and compiling was the largest share of start-up above the SDK's own schema building.
 *
 * The caller decides when to write (dist/cli.js: at exit). The cache file is named by the bundle's content hash and the Node version and architecture (V8
 * checks only the source's length, its own version and flags); a cache V8 refuses
 * (`cachedDataRejected`) is compiled without and written anew. V8 runs what a cache holds, so only
 * a file this user owns and no one else may write is read (a shared or lax cache dir cannot hand
 * the server code), and the cache is written readable by this user only. Nothing here writes to stdout or
 * fails the start: an unreadable or unwritable cache dir only means compiling as without one.
 */
import { createHash } from "node:crypto";
import {
  closeSync,
  fstatSync,
  mkdirSync,
  openSync,
  readdirSync,
  readFileSync,
  renameSync,
  statSync,
  unlinkSync,
  writeFileSync,
} from "node:fs";
import nodeModule from "node:module";
import { dirname, join } from "node:path";
import { pathToFileURL } from "node:url";
import vm from "node:vm";

/** Used; compiled without (none yet, or refused: written at exit); or no cache dir given. */
export type CacheState = "hit" | "miss" | "off";

export interface CachedModule<T> {
  exports: T;
  cache: CacheState;
  /**
   * After a miss: writes what V8 has compiled of the file so far (atomically; never throws). Best
   * called late, as the process exits, so the cache holds the handshake's code too.
   */
  persist(): void;
}

/** The cache's file for `source` under `dir`. */
export function cacheFile(dir: string, source: string): string {
  const hash = createHash("sha256").update(source).digest("hex").slice(0, 16);
  return join(dir, "code", `stdio-${hash}-${process.version}-${process.arch}.bin`);
}

/**
 * Runs the CommonJS `file` as `require` would, compiled with the code cache under `cacheDir`
 * (none when `cacheDir` is undefined). The bundle's `__import(specifier)` loads an ES module
 * relative to `file` (scripts/bundle.mjs turns its lazy `import()`s into it).
 */
export function loadCached<T>(file: string, cacheDir: string | undefined): CachedModule<T> {
  const source = readFileSync(file, "utf8");
  const cachePath = cacheDir === undefined ? undefined : cacheFile(cacheDir, source);
  const cachedData = cachePath ? readOwnCache(cachePath) : undefined;
  const script = new vm.Script(nodeModule.wrap(source).replace(/^\(function \(/, "(function (__import, "), {
    filename: file,
    cachedData,
  });
  const cache: CacheState = !cachePath ? "off" : cachedData && !script.cachedDataRejected ? "hit" : "miss";
  let persisted = false;
  const base = pathToFileURL(file);
  const load = (specifier: string) => import(new URL(specifier, base).href);
  const module = { exports: {} as T };
  script.runInThisContext()(
    load,
    module.exports,
    nodeModule.createRequire(file),
    module,
    file,
    dirname(file),
  );
  return {
    exports: module.exports,
    cache,
    persist: () => {
      if (cache !== "miss" || persisted) return;
      persisted = true;
      writeCache(cachePath as string, script);
    },
  };
}

/**
 * The cache at `path` when this user owns it and only they may write it; else none. (Windows has
 * no owner or mode bits here: its default cache dir is under the user's own profile.)
 */
function readOwnCache(path: string): Buffer | undefined {
  let fd: number | undefined;
  try {
    fd = openSync(path, "r");
    const { uid, mode } = fstatSync(fd);
    const own = process.platform === "win32" || (uid === process.getuid?.() && (mode & 0o022) === 0);
    return own ? readFileSync(fd) : undefined;
  } catch {
    return undefined;
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}

/** A cache of another build is dropped once it is this old (ms): an upgrade leaves one behind. */
const STALE_MS = 7 * 24 * 3600_000;

/** Writes the script's code cache to `path` (atomically), dropping other builds' stale caches. */
function writeCache(path: string, script: vm.Script): void {
  try {
    const dir = dirname(path);
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    const temp = `${path}.${process.pid}.tmp`;
    writeFileSync(temp, script.createCachedData(), { mode: 0o600 });
    renameSync(temp, path);
    for (const name of readdirSync(dir)) {
      const other = join(dir, name);
      if (!name.startsWith("stdio-") || other === path) continue;
      try {
        if (Date.now() - statSync(other).mtimeMs > STALE_MS) unlinkSync(other);
      } catch {}
    }
  } catch {
    // No cache this time: the next start compiles as this one did.
  }
}
