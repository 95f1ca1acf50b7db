/**
 * Loads a CommonJS bundle (dist/stdio.cjs, and the stdio server's runtime dist/runtime.cjs it loads
 * on first need; scripts/bundle.mjs) with V8's code cache: the first run compiles it and writes
 * what V8 compiled by then (at exit: the start path, the handshake's and the first call's code) to
 * a file under the cache dir; later runs hand that back to V8 instead of compiling. Node 20 has no
 * cache for ES modules (`module.enableCompileCache()` is Node >= 22.1), and compiling was the largest
 * share of start-up above the SDK's own schema building, and of the first call's wait.
 *
 * The caller decides when to write (dist/cli.cjs: at exit); a file's own cache is also written just
 * before its first `__import`, where the caller may set V8 flags (`LoadOptions`). The cache file
 * is named by the bundle's name, its file identity (device, inode, size, modification and change
 * times: a rewritten file has a new change time, which no one can set back, so no hashing of its
 * megabytes at each start) and the Node version and architecture (V8 checks only the source's
 * length, its own version and flags); a cache V8 refuses (`cachedDataRejected`) is compiled
 * without and written anew. V8 runs what a cache holds, so only a file this user owns and no one
 * else may write is read (a shared or lax cache dir cannot hand the server code), and the cache is
 * written readable by this user only. Nothing here writes to stdout or fails the start: an
 * unreadable or unwritable cache dir only means compiling as without one.
 */
import { isAscii } from "node:buffer";
import {
  closeSync,
  fstatSync,
  mkdirSync,
  openSync,
  readdirSync,
  readFileSync,
  readSync,
  renameSync,
  statSync,
  unlinkSync,
  writeFileSync,
} from "node:fs";
import { createRequire } from "node:module";
import { basename, dirname, join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { Script } from "node:vm";

/** Used; compiled without (none yet, or refused: written at exit); or no cache dir given. */
export type CacheState = "hit" | "miss" | "off";

export interface CachedModule<T> {
  exports: T;
  cache: CacheState;
  /**
   * After a miss: writes what V8 has compiled of the file so far (atomically; never throws), and
   * of each `.cjs` file it loaded through `__import`. Best called late, as the process exits, so
   * the cache holds the handshake's code too.
   */
  persist(): void;
}

export interface LoadOptions {
  /**
   * Runs once, before the file's first `__import`, after this file's own cache is written (on a
   * miss): where V8 flags that would make V8 refuse this file's cache are set (src/cli.ts).
   */
  beforeImport?: () => void | Promise<void>;
}

/** The part of a cache file's name that changes whenever `file` is rewritten or replaced. */
function identity(file: string | number): string {
  const s = typeof file === "number" ? fstatSync(file, { bigint: true }) : statSync(file, { bigint: true });
  return [s.dev, s.ino, s.size, s.mtimeNs, s.ctimeNs].map((n) => n.toString(36)).join(".");
}

/** The cache's file for the bundle `file` (as it is on disk now) under `dir`. */
export function cacheFile(dir: string, file: string | number, name = "stdio"): string {
  return join(dir, "code", `${name}-${identity(file)}-${process.version}-${process.arch}.bin`);
}

/** What a bundle runs in: CommonJS's own function wrapper (`module.wrap`), `__import` first. */
const WRAP_HEAD = Buffer.from(
  "(function (__import, exports, require, module, __filename, __dirname) { ",
  "latin1",
);
const WRAP_TAIL = Buffer.from("\n});", "latin1");

/**
 * The bundle's text in its wrapper, read into one buffer and decoded once. Start-up pays for each
 * byte of fresh memory it touches (page faults: about 5 ms a MB on the 2-core test host): wrapping
 * the decoded source, then replacing in it, had V8 copy the whole text three more times (1 MB of
 * short-lived large strings for stdio.cjs, and one more garbage collection before the first answer).
 * From about 1 MB up, Node keeps the decoded text outside V8's heap. The bundles are ASCII
 * (scripts/bundle.mjs): latin1 is the same text without UTF-8 decoding.
 */
function readWrapped(fd: number): string {
  const size = WRAP_HEAD.length + fstatSync(fd).size;
  const text = Buffer.allocUnsafeSlow(size + WRAP_TAIL.length);
  let end = WRAP_HEAD.copy(text);
  for (let n = -1; n !== 0 && end < size; end += n) n = readSync(fd, text, end, size - end, null);
  end += WRAP_TAIL.copy(text, end);
  const wrapped = text.subarray(0, end);
  return wrapped.toString(isAscii(wrapped) ? "latin1" : "utf8");
}

/**
 * Runs the CommonJS `file` as `require` would, compiled with the code cache under `cacheDir`
 * (none when `cacheDir` is undefined). The bundle's `__import(specifier)` loads, relative to
 * `file`, an ES module, or a `.cjs` bundle the same way as this one (scripts/bundle.mjs turns its
 * lazy `import()`s into it).
 */
export function loadCached<T>(
  file: string,
  cacheDir: string | undefined,
  options: LoadOptions = {},
): CachedModule<T> {
  const name = basename(file).replace(/\.c?js$/, "");
  let source: string;
  let cachePath: string | undefined;
  const fd = openSync(file, "r");
  try {
    cachePath = cacheDir === undefined ? undefined : cacheFile(cacheDir, fd, name);
    source = readWrapped(fd);
  } finally {
    closeSync(fd);
  }
  const cachedData = cachePath ? readOwnCache(cachePath) : undefined;
  const script = new Script(source, {
    filename: file,
    cachedData,
  });
  const cache: CacheState = !cachePath ? "off" : cachedData && !script.cachedDataRejected ? "hit" : "miss";
  let persisted = false;
  const persistOwn = () => {
    if (cache !== "miss" || persisted) return;
    persisted = true;
    writeCache(cachePath as string, name, script);
  };
  const imports = lazyImports(file, cacheDir, async () => {
    persistOwn();
    await options.beforeImport?.();
  });
  const module = { exports: {} as T };
  script.runInThisContext()(imports.load, module.exports, createRequire(file), module, file, dirname(file));
  return {
    exports: module.exports,
    cache,
    persist: () => {
      for (const bundle of imports.bundles.values()) bundle.persist();
      persistOwn();
    },
  };
}

/**
 * The bundle's `__import`: an ES module, or a `.cjs` bundle loaded as `loadCached` loads `file`
 * (each once, kept in `bundles`), all relative to `file`; `first` runs once, before any.
 */
function lazyImports(file: string, cacheDir: string | undefined, first: () => Promise<void>) {
  const base = pathToFileURL(file);
  const bundles = new Map<string, CachedModule<unknown>>();
  let ready: Promise<void> | undefined;
  const load = async (specifier: string) => {
    ready ??= first();
    await ready;
    const url = new URL(specifier, base);
    if (!specifier.endsWith(".cjs")) return import(url.href);
    const path = fileURLToPath(url);
    let loaded = bundles.get(path);
    if (!loaded) {
      loaded = loadCached(path, cacheDir);
      bundles.set(path, loaded);
    }
    return loaded.exports;
  };
  return { load, bundles };
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

/** Writes the script's code cache to `path` (atomically), dropping other builds' stale caches of `name`. */
function writeCache(path: string, name: string, script: Script): void {
  try {
    const dir = dirname(path);
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    const temp = `${path}.${process.pid}.tmp`;
    writeFileSync(temp, script.createCachedData(), { mode: 0o600 });
    renameSync(temp, path);
    for (const entry of readdirSync(dir)) {
      const other = join(dir, entry);
      if (!entry.startsWith(`${name}-`) || other === path) continue;
      try {
        if (Date.now() - statSync(other).mtimeMs > STALE_MS) unlinkSync(other);
      } catch {}
    }
  } catch {
    // No cache this time: the next start compiles as this one did.
  }
}
