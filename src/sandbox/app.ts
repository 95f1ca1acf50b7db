/** The sandbox's hono application: middleware layers, one routes file per API area. */
import { Hono } from "hono";
import type { SandboxState } from "./context.js";
import { errorResponse, type SandboxEnv } from "./http.js";
import { authenticate, injectFaults, logRequests, rateLimit } from "./middleware.js";
import { controlRoutes } from "./routes/control.js";
import { extractRoutes } from "./routes/extract.js";
import { taskRoutes } from "./routes/tasks.js";
import { siteRoutes } from "./site/routes.js";

export function createApp(state: SandboxState) {
  const app = new Hono<SandboxEnv>();
  app.use("*", logRequests(state), rateLimit(state), injectFaults(state), authenticate(state));
  app.route("/site", siteRoutes(state));
  app.route("/_sandbox", controlRoutes(state));
  for (const routes of [extractRoutes, taskRoutes]) app.route("/", routes(state));
  app.notFound((c) => errorResponse(c, 404, `No route for ${c.req.method} ${c.req.path}`));
  app.onError((err, c) =>
    errorResponse(c, 500, `Internal error: ${err instanceof Error ? err.message : String(err)}`),
  );
  return app;
}
