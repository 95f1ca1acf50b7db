// The esbuild plugin that keeps lru-cache from loading `node:perf_hooks` as it loads: it picks its
// clock by reading `globalThis.performance`, and that first read loads perf_hooks with ten of Node's
// internal modules (1-1.5 ms of a stdio server's first call, which reaches lru-cache through
// src/api/sized-lru.ts). Its clock now reads `performance` on its first `now()`: the same clock
// wherever `performance` exists, which is every Node we run on. Checked by
// test/install/start-path.test.ts and test/install/bundle-plugins.test.ts.
import { readFile } from "node:fs/promises";
import { rewriteSource } from "./source-rewrite.mjs";

const EAGER_CLOCK =
  'var L=typeof performance=="object"&&performance&&typeof performance.now=="function"?performance:Date;';
const LAZY_CLOCK = "var L={now:()=>performance.now()};";

export const lazyLruClock = {
  name: "lazy-lru-clock",
  setup(b) {
    b.onLoad({ filter: /lru-cache[\\/]dist[\\/]esm[\\/]node[\\/]index\.min\.js$/ }, async (args) =>
      rewriteSource(args.path, await readFile(args.path, "utf8"), [
        [EAGER_CLOCK, LAZY_CLOCK, "picks its clock as expected"],
      ]),
    );
  },
};
