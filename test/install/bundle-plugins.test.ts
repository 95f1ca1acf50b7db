/**
 * The bundle's rewrites of undici and lru-cache (scripts/undici-plugin.mjs,
 * scripts/lru-cache-plugin.mjs, issue 33) fail the build when the dependency's source no longer
 * reads as they expect, instead of bundling code that reads a binding they removed.
 */
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { build, type Plugin } from "esbuild";
import { afterAll, describe, expect, it } from "vitest";
import { lazyLruClock } from "../../scripts/lru-cache-plugin.mjs";
import { leanUndici } from "../../scripts/undici-plugin.mjs";
import { at } from "./helpers.js";

const dir = mkdtempSync(join(tmpdir(), "webdata-bundle-plugins-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** A copy of a dependency's file under `dir`, at the path the plugin's filter knows, as `edit` makes it. */
function copyOf(from: string, to: string, edit: (text: string) => string = (text) => text): string {
  const file = join(dir, to);
  mkdirSync(join(file, ".."), { recursive: true });
  copyFileSync(at(from), file);
  writeFileSync(file, edit(readFileSync(file, "utf8")));
  return file;
}

/** The build of `file` alone through `plugin`: its output, or the first error's text. */
async function built(file: string, plugin: Plugin): Promise<{ code?: string; error?: string }> {
  try {
    const out = await build({ entryPoints: [file], write: false, logLevel: "silent", plugins: [plugin] });
    return { code: out.outputFiles[0]?.text };
  } catch (error) {
    return { error: (error as { errors?: Array<{ text: string }> }).errors?.[0]?.text ?? String(error) };
  }
}

const CLIENT = "node_modules/undici/lib/dispatcher/client.js";
const UTIL = "node_modules/undici/lib/core/util.js";
const LRU = "node_modules/lru-cache/dist/esm/node/index.min.js";

describe("undici as bundled", () => {
  it("rewrites client.js and util.js as they are", async () => {
    const client = await built(copyOf(CLIENT, "a/undici/lib/dispatcher/client.js"), leanUndici);
    expect(client.code).toContain('require("node:http").maxHeaderSize');
    expect(client.code).not.toMatch(/^const http = require/m);
    const util = await built(copyOf(UTIL, "a/undici/lib/core/util.js"), leanUndici);
    expect(util.code).toContain('constructor === require("node:http").IncomingMessage');
  });

  it("fails when a module would still read node:http through the binding the rewrite removes", async () => {
    const client = copyOf(
      CLIENT,
      "b/undici/lib/dispatcher/client.js",
      (t) => `${t}\nconst agent = () => http.globalAgent\n`,
    );
    expect((await built(client, leanUndici)).error).toMatch(/also uses http\.globalAgent/);
    const util = copyOf(
      UTIL,
      "b/undici/lib/core/util.js",
      (t) => `${t}\nconst isIncoming = (s) => s instanceof IncomingMessage\n`,
    );
    expect((await built(util, leanUndici)).error).toMatch(/also uses IncomingMessage/);
  });

  it("fails when a module uses assert other than as a call, or under another name", async () => {
    const member = copyOf(UTIL, "c/undici/lib/core/util.js", (t) => `${t}\nassert.strictEqual(1, 1)\n`);
    expect((await built(member, leanUndici)).error).toMatch(/uses assert other than as a call/);
    const renamed = copyOf(UTIL, "d/undici/lib/core/util.js", (t) =>
      t.replace("const assert = require('node:assert')", "const check = require('node:assert')"),
    );
    expect((await built(renamed, leanUndici)).error).toMatch(/a binding not named assert/);
  });

  it("fails when client.js no longer loads node:http as the rewrite expects", async () => {
    const client = copyOf(CLIENT, "e/undici/lib/dispatcher/client.js", (t) =>
      t.replace("const http = require('node:http')", "const http = require('http')"),
    );
    expect((await built(client, leanUndici)).error).toMatch(
      /no longer reads as scripts\/undici-plugin\.mjs expects/,
    );
  });
});

describe("lru-cache as bundled", () => {
  it("reads performance on its clock's first use, and fails when it picks its clock otherwise", async () => {
    const lru = await built(copyOf(LRU, "f/lru-cache/dist/esm/node/index.min.js"), lazyLruClock);
    expect(lru.code).toContain("now: () => performance.now()");
    expect(lru.code).not.toContain('typeof performance == "object"');
    const changed = copyOf(LRU, "g/lru-cache/dist/esm/node/index.min.js", (t) =>
      t.replace('typeof performance=="object"', 'typeof performance==="object"'),
    );
    expect((await built(changed, lazyLruClock)).error).toMatch(/no longer picks its clock as expected/);
  });
});
