import { readFileSync } from "node:fs";

/** The package version (dist/server/version.js → ../../package.json). */
export const VERSION: string = (() => {
  try {
    const pkg = JSON.parse(readFileSync(new URL("../../package.json", import.meta.url), "utf8"));
    return typeof pkg.version === "string" ? pkg.version : "0.0.0";
  } catch {
    return "0.0.0";
  }
})();

export const SERVER_NAME = "web-data";
