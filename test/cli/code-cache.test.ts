/**
 * The loader dist/cli.cjs runs the stdio start path (dist/stdio.cjs) through: V8's code cache kept
 * under the cache dir, keyed by the file's identity (a rewritten file gets a new one), refused
 * caches recompiled, a lazily loaded `.cjs` cached alike, never a failed
 * start. On small CommonJS files of the test's own; the built server's start is
 * test/install/start-path.test.ts's.
 */
import {
  chmodSync,
  chownSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { cacheFile, loadCached } from "../../src/cli/code-cache.js";

const temp = mkdtempSync(join(tmpdir(), "webdata-code-cache-"));
afterAll(() => rmSync(temp, { recursive: true, force: true }));

let n = 0;
/** A fresh folder for `main.cjs` (written by `write`), with a cache dir beside it. */
function fixture(source: string) {
  const dir = join(temp, `case-${n++}`);
  mkdirSync(dir, { recursive: true });
  const file = join(dir, "main.cjs");
  return {
    dir,
    cache: join(dir, "cache"),
    write: (text = source) => {
      writeFileSync(file, text);
      return file;
    },
  };
}

const MODULE = `
const { basename } = require("node:path");
function add(a, b) { return a + b; }
module.exports = { sum: [1, 2, 3, 4].reduce(add, 0), name: basename(__filename), dir: __dirname };
`;

describe("loadCached", () => {
  it("compiles without a cache, writes one when asked, and uses it on the next load", () => {
    const f = fixture(MODULE);
    const file = f.write();
    const first = loadCached<{ sum: number; name: string; dir: string }>(file, f.cache);
    expect(first.cache).toBe("miss");
    expect(first.exports).toEqual({ sum: 10, name: "main.cjs", dir: f.dir });
    first.persist();
    const written = readdirSync(join(f.cache, "code"));
    expect(written).toHaveLength(1);
    expect(written[0]).toMatch(new RegExp(`^main-[0-9a-z.]+-${process.version}-${process.arch}\\.bin$`));

    const second = loadCached<{ sum: number }>(file, f.cache);
    expect(second.cache).toBe("hit");
    expect(second.exports.sum).toBe(10);
  });

  it("reads the file's text whole: a UTF-8 file, and one past 1 MB (which Node keeps outside V8's heap), hit their caches", () => {
    const cases = [
      `module.exports = { text: "caf\u00e9 \u2014 \u{1F600}", end: "\\u00e9" };`,
      `${"// padding\n".repeat(100_000)}module.exports = { text: "long", end: "\\u00e9" };`,
    ];
    for (const source of cases) {
      const f = fixture(source);
      const file = f.write();
      const first = loadCached<{ text: string; end: string }>(file, f.cache);
      first.persist();
      const second = loadCached<{ text: string; end: string }>(file, f.cache);
      expect(second.cache).toBe("hit");
      expect(second.exports).toEqual(first.exports);
      expect(second.exports.end).toBe("\u00e9");
    }
    const utf8 = loadCached<{ text: string }>(fixture(cases[0]).write(), undefined);
    expect(utf8.exports.text).toBe("caf\u00e9 \u2014 \u{1F600}");
    expect(statSync(fixture(cases[1]).write()).size).toBeGreaterThan(1_050_000);
  });

  it("keys the cache by the file's identity: a same-length rewrite is compiled anew, not served the old code", () => {
    const f = fixture(MODULE);
    const file = f.write();
    loadCached(file, f.cache).persist();
    const before = cacheFile(f.cache, file, "main");
    // V8 checks a cache against the source's length only; the file name has the file's size,
    // inode and modification and change times. A write in place gets a new change time (a
    // kernel with a coarse clock may give two writes in one tick the same: write until it moves).
    const changed = MODULE.replace("a + b", "a * b");
    expect(changed.length).toBe(MODULE.length);
    const ctime = () => statSync(file, { bigint: true }).ctimeNs;
    const old = ctime();
    do f.write(changed);
    while (ctime() === old);
    expect(cacheFile(f.cache, file, "main")).not.toBe(before);
    const again = loadCached<{ sum: number }>(file, f.cache);
    expect(again.cache).toBe("miss");
    expect(again.exports.sum).toBe(0);
  });

  it("a cache V8 refuses (here: junk bytes) is compiled without and written anew", () => {
    const f = fixture(MODULE);
    const file = f.write();
    const path = cacheFile(f.cache, file, "main");
    mkdirSync(join(f.cache, "code"), { recursive: true });
    writeFileSync(path, Buffer.from("not a V8 code cache"));
    const refused = loadCached<{ sum: number }>(file, f.cache);
    expect(refused.cache).toBe("miss");
    expect(refused.exports.sum).toBe(10);
    refused.persist();
    expect(readFileSync(path).toString("latin1")).not.toBe("not a V8 code cache");
    expect(loadCached(file, f.cache).cache).toBe("hit");
  });

  it("reads only a cache this user owns and no one else may write (V8 runs what it holds)", () => {
    const f = fixture(MODULE);
    const file = f.write();
    loadCached(file, f.cache).persist();
    const path = cacheFile(f.cache, file, "main");
    expect(statSync(path).mode & 0o777).toBe(0o600);
    expect(statSync(join(f.cache, "code")).mode & 0o777).toBe(0o700);
    expect(loadCached(file, f.cache).cache).toBe("hit");
    chmodSync(path, 0o666);
    expect(loadCached(file, f.cache).cache).toBe("miss");
    chmodSync(path, 0o600);
    expect(loadCached(file, f.cache).cache).toBe("hit");
    if (process.getuid?.() === 0) {
      chownSync(path, 4242, 4242);
      expect(loadCached(file, f.cache).cache).toBe("miss");
    }
  });

  it("an unwritable cache dir only means no cache: the module still loads and persist does not throw", () => {
    const f = fixture(MODULE);
    const file = f.write();
    // A cache dir under a regular file can be neither read nor created.
    const loaded = loadCached<{ sum: number }>(file, join(file, "cache"));
    expect(loaded.cache).toBe("miss");
    expect(loaded.exports.sum).toBe(10);
    expect(() => loaded.persist()).not.toThrow();
    expect(loadCached(file, undefined).cache).toBe("off");
  });

  it("loads a .cjs file through __import the same way, with its own cache, written by the loader's persist", async () => {
    const f = fixture("");
    const main = f.write('module.exports = { load: () => __import("./lazy.cjs") };');
    const lazy = join(f.dir, "lazy.cjs");
    writeFileSync(lazy, MODULE);
    const first = loadCached<{ load(): Promise<{ sum: number; name: string }> }>(main, f.cache);
    expect(await first.exports.load()).toMatchObject({ sum: 10, name: "lazy.cjs" });
    // The same module on a second import.
    expect(await first.exports.load()).toBe(await first.exports.load());
    first.persist();
    expect(
      readdirSync(join(f.cache, "code"))
        .map((n) => n.split("-")[0])
        .sort(),
    ).toEqual(["lazy", "main"]);
    expect(existsSync(cacheFile(f.cache, lazy, "lazy"))).toBe(true);
    const second = loadCached<{ load(): Promise<{ sum: number }> }>(main, f.cache);
    expect(second.cache).toBe("hit");
    expect((await second.exports.load()).sum).toBe(10);
  });

  it("writes the file's own cache, then runs beforeImport once, before its first __import (where V8 flags are set)", async () => {
    const f = fixture("");
    const main = f.write("module.exports = { load: (p) => __import(p) };");
    writeFileSync(join(f.dir, "lazy.cjs"), MODULE);
    writeFileSync(join(f.dir, "lazy.mjs"), "export const answer = 42;\n");
    const seen: string[][] = [];
    const loaded = loadCached<{ load(p: string): Promise<{ sum?: number; answer?: number }> }>(
      main,
      f.cache,
      {
        beforeImport: async () => {
          seen.push(existsSync(join(f.cache, "code")) ? readdirSync(join(f.cache, "code")) : []);
        },
      },
    );
    expect(seen).toEqual([]);
    const [cjs, esm] = await Promise.all([
      loaded.exports.load("./lazy.cjs"),
      loaded.exports.load("./lazy.mjs"),
    ]);
    expect(cjs.sum).toBe(10);
    expect(esm.answer).toBe(42);
    expect(seen).toHaveLength(1);
    expect(seen[0].map((n) => n.split("-")[0])).toEqual(["main"]);
    loaded.persist();
    expect(loadCached(main, f.cache).cache).toBe("hit");
  });

  it("gives the file __import, which loads an ES module relative to it", async () => {
    const f = fixture("");
    f.write('module.exports = { load: () => __import("./lazy.mjs") };');
    writeFileSync(join(f.dir, "lazy.mjs"), "export const answer = 42;\n");
    const loaded = loadCached<{ load(): Promise<{ answer: number }> }>(join(f.dir, "main.cjs"), f.cache);
    expect((await loaded.exports.load()).answer).toBe(42);
  });
});
