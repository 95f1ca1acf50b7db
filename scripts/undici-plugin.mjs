// The esbuild plugin that gives our sources (src/api/http.ts) the part of undici they use: the
// dispatchers and their request API, without fetch, WebSocket, EventSource, cookies, caches, the
// mock agents and the interceptors that undici's index.js requires eagerly (1 MB of the first
// call's 2.2 MB of code). It also keeps Node's own copy of undici (its lazy `fetch`/`Headers`
// globals, with llhttp's WebAssembly) from loading: undici's cookies module reads
// `globalThis.Headers` as it is evaluated. And its HTTP/1.1 client no longer loads the HTTP/2 one
// (with `node:http2` and `node:tls`, ~15 ms) until a TLS connection negotiates h2, which ours never
// asks for (`allowH2` is off). Nor does it load `node:assert` and `node:http` (with its server half)
// until they are needed: undici only calls `assert(value)` to check its own invariants, and reads
// `http` for `IncomingMessage` when it destroys a stream body and for `http.maxHeaderSize` when a
// client is given none (src/api/http.ts gives one): 10-15 ms of a server's first call. Checked by
// test/install/start-path.test.ts; test/install/bundle-plugins.test.ts checks that a rewrite fails
// the build when undici's source no longer fits it.
import { readFile } from "node:fs/promises";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { rewriteSource } from "./source-rewrite.mjs";

const root = dirname(fileURLToPath(import.meta.resolve("undici/package.json")));

/**
 * undici's index.js without what we do not call: the same modules for the dispatchers, and the
 * same `Object.assign(Dispatcher.prototype, api)` that gives them `request()` and `stream()`. An
 * import of a name it does not export fails the build (esbuild: no matching export).
 */
const LEAN = `
import Dispatcher from "./lib/dispatcher/dispatcher.js";
import api from "./lib/api/index.js";
import Agent from "./lib/dispatcher/agent.js";
import EnvHttpProxyAgent from "./lib/dispatcher/env-http-proxy-agent.js";
Object.assign(Dispatcher.prototype, api);
export { Agent, EnvHttpProxyAgent };
`;

/** client.js's eager `require` of its HTTP/2 side, and the same call made on first use. */
const H2 = /^const connectH2 = require\('\.\/client-h2\.js'\)$/m;
const LAZY_H2 = "const connectH2 = (client, socket) => require('./client-h2.js')(client, socket)";

/**
 * What undici's modules get for `require('node:assert')`: the same check, which loads Node's
 * `assert` (and throws its AssertionError) only when an invariant fails.
 */
const LAZY_ASSERT = `module.exports = function assert(value, message) {
  if (!value) require("node:assert")(value, message);
};`;
/** How each of undici's modules requires it. */
const ASSERT_REQUIRED = "const assert = require('node:assert')";
/** Any use of `assert` but a call (`assert.ok`, `assert.strictEqual`, passing it on…), which the stand-in lacks. */
const ASSERT_OTHER_THAN_CALLED = /(?<!node:)\bassert\b(?!\s*\(|\s*=\s*require\('node:assert'\))/;

/**
 * util.js's eager `IncomingMessage`, and the one place that reads it (destroying a stream body: a
 * request's, or a response's when its request is aborted), which loads node:http only for a
 * stream whose class has that name.
 */
const INCOMING = /^const \{ IncomingMessage \} = require\('node:http'\)$/m;
const INCOMING_READ = "Object.getPrototypeOf(stream).constructor === IncomingMessage";
const LAZY_INCOMING_READ =
  "Object.getPrototypeOf(stream).constructor?.name === 'IncomingMessage' && Object.getPrototypeOf(stream).constructor === require('node:http').IncomingMessage";

/** client.js's eager `node:http`, read for the default `maxHeaderSize` as the module loads. */
const HTTP = /^const http = require\('node:http'\)$/m;
const MAX_HEADER_SIZE =
  /^const getDefaultNodeMaxHeaderSize = http &&\n {2}http\.maxHeaderSize &&\n {2}Number\.isInteger\(http\.maxHeaderSize\) &&\n {2}http\.maxHeaderSize > 0\n {2}\? \(\) => http\.maxHeaderSize\n {2}: \(\) => \{ throw new InvalidArgumentError\('http module not available or http\.maxHeaderSize invalid'\) \}$/m;
const LAZY_MAX_HEADER_SIZE = `const getDefaultNodeMaxHeaderSize = () => {
  const size = require('node:http').maxHeaderSize
  if (Number.isInteger(size) && size > 0) return size
  throw new InvalidArgumentError('http module not available or http.maxHeaderSize invalid')
}`;

/** The build's error when one of undici's files no longer reads as a rewrite expects. */
const expects = (pattern) => `reads as scripts/undici-plugin.mjs expects (${pattern})`;

export const leanUndici = {
  name: "lean-undici",
  setup(b) {
    b.onResolve({ filter: /^undici$/ }, (args) =>
      /[\\/]src[\\/]/.test(args.importer)
        ? { path: join(root, "lean.js"), namespace: "lean-undici" }
        : undefined,
    );
    b.onLoad({ filter: /lean\.js$/, namespace: "lean-undici" }, () => ({
      contents: LEAN,
      loader: "js",
      resolveDir: root,
    }));
    b.onResolve({ filter: /^node:assert$/ }, (args) =>
      /[\\/]undici[\\/]lib[\\/]/.test(args.importer)
        ? { path: "lazy-assert", namespace: "lean-undici" }
        : undefined,
    );
    b.onLoad({ filter: /^lazy-assert$/, namespace: "lean-undici" }, () => ({
      contents: LAZY_ASSERT,
      loader: "js",
    }));
    b.onLoad({ filter: /undici[\\/]lib[\\/].*\.js$/ }, async (args) => {
      const source = await readFile(args.path, "utf8");
      const assertUse =
        source.split("require('node:assert')").length > source.split(ASSERT_REQUIRED).length
          ? ["a binding not named assert"]
          : source.includes(ASSERT_REQUIRED) && ASSERT_OTHER_THAN_CALLED.exec(source);
      if (assertUse)
        return {
          errors: [{ text: `bundle: ${args.path} uses assert other than as a call: ${assertUse[0]}` }],
        };
      if (/[\\/]dispatcher[\\/]client\.js$/.test(args.path))
        return rewriteSource(
          args.path,
          source,
          [
            [H2, LAZY_H2, expects(H2)],
            [HTTP, "", expects(HTTP)],
            [MAX_HEADER_SIZE, LAZY_MAX_HEADER_SIZE, expects(MAX_HEADER_SIZE)],
          ],
          /\bhttp\.\w+/,
        );
      if (/[\\/]core[\\/]util\.js$/.test(args.path))
        return rewriteSource(
          args.path,
          source,
          [
            [INCOMING, "", expects(INCOMING)],
            [INCOMING_READ, LAZY_INCOMING_READ, expects(INCOMING_READ)],
          ],
          /\bIncomingMessage\b/,
        );
      return undefined;
    });
  },
};
