// `npm run build` in one process: the per-file transpile (compile.mjs) and the bundles (bundle.mjs)
// side by side (they write different files: the transpile leaves src/cli.ts to the bundle), then
// dist/tool-list.json from the transpiled registry (tool-list.mjs), then the stamp of what it was
// built from (build-inputs.mjs). One Node and one esbuild service instead of four and three, and
// the transpile's second hidden behind the bundling.
import { writeStamp } from "./build-inputs.mjs";

await Promise.all([import("./compile.mjs"), import("./bundle.mjs")]);
await import("./tool-list.mjs");
writeStamp();
