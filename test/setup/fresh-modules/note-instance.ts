// What the two probes of test/layers/fresh-modules.test.ts run: notes whether the instance of a
// module of ours (src/api/routes.ts) this file got is the one an earlier file of this worker got.
import { appendFileSync } from "node:fs";
import * as routes from "../../../src/api/routes.js";

const earlier = globalThis as { probedRoutes?: unknown };

export function noteInstance(): void {
  const seen =
    earlier.probedRoutes === undefined ? "none" : earlier.probedRoutes === routes ? "shared" : "fresh";
  earlier.probedRoutes = routes;
  appendFileSync(process.env.FRESH_MODULES_LOG as string, `${seen}\n`);
}
