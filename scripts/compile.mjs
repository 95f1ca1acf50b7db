// Transpiles src/ to dist/ file by file (the layout tsc would emit), without type checks: esbuild
// does it in about a second where tsc's emit took 16 s. Types are checked by `npm run typecheck`,
// which `npm run lint` and `npm pack` run. tsconfig.json sets `isolatedModules`, so every file
// transpiles on its own exactly as tsc would emit it.
import { build } from "esbuild";

await build({
  entryPoints: ["src/**/*.ts"],
  outdir: "dist",
  outbase: "src",
  bundle: false,
  format: "esm",
  platform: "node",
  target: "node20",
  sourcemap: true,
  logLevel: "warning",
});
