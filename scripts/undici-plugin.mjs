// The esbuild plugin that gives our sources (src/api/http.ts) the part of undici they use: the
// dispatchers and their request API, without fetch, WebSocket, EventSource, cookies, caches, the
// mock agents and the interceptors that undici's index.js requires eagerly (1 MB of the first
// call's 2.2 MB of code). It also keeps Node's own copy of undici (its lazy `fetch`/`Headers`
// globals, with llhttp's WebAssembly) from loading: undici's cookies module reads
// `globalThis.Headers` as it is evaluated. And its HTTP/1.1 client no longer loads the HTTP/2 one
// (with `node:http2` and `node:tls`, ~15 ms) until a TLS connection negotiates h2, which ours never
// asks for (`allowH2` is off). Checked by test/install/start-path.test.ts.
import { readFile } from "node:fs/promises";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

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

export const leanUndici = {
  name: "lean-undici",
  setup(b) {
    b.onResolve({ filter: /^undici$/ }, (args) =>
      /[\\/]src[\\/]/.test(args.importer)
        ? { path: join(root, "lean.js"), namespace: "lean-undici" }
        : undefined,
    );
    b.onLoad({ filter: /.*/, namespace: "lean-undici" }, () => ({
      contents: LEAN,
      loader: "js",
      resolveDir: root,
    }));
    b.onLoad({ filter: /undici[\\/]lib[\\/]dispatcher[\\/]client\.js$/ }, async (args) => {
      const source = await readFile(args.path, "utf8");
      if (!H2.test(source))
        return { errors: [{ text: `bundle: ${args.path} no longer requires client-h2 as expected` }] };
      return { contents: source.replace(H2, LAZY_H2), loader: "js" };
    });
  },
};
