import { readFileSync } from "node:fs";

/**
 * The package version, read from the package.json above this module (dist/server/version.js in
 * the tsc build, dist/cli.cjs or dist/chunks/*.js in the bundle).
 */
export const VERSION: string = (() => {
  for (const up of ["../package.json", "../../package.json", "../../../package.json"]) {
    try {
      const pkg = JSON.parse(readFileSync(new URL(up, import.meta.url), "utf8"));
      if (pkg.name === "web-data-mcp" && typeof pkg.version === "string") return pkg.version;
    } catch {
      // not there; look one level up
    }
  }
  return "0.0.0";
})();

export const SERVER_NAME = "web-data";
