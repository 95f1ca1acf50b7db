import { readFileSync } from "node:fs";

/** The package version, written into the bundles by scripts/bundle.mjs (no file to read as they start). */
declare const __WEBDATA_VERSION__: string | undefined;

/**
 * The package version: the bundles' own, else read from the package.json above this module
 * (dist/server/version.js in the per-file build, src/server/version.ts in the tests).
 */
export const VERSION: string =
  typeof __WEBDATA_VERSION__ === "string" ? __WEBDATA_VERSION__ : packageVersion();

function packageVersion(): string {
  for (const up of ["../package.json", "../../package.json", "../../../package.json"]) {
    try {
      const pkg = JSON.parse(readFileSync(new URL(up, import.meta.url), "utf8"));
      if (pkg.name === "web-data-mcp" && typeof pkg.version === "string") return pkg.version;
    } catch {
      // not there; look one level up
    }
  }
  return "0.0.0";
}

export const SERVER_NAME = "web-data";
