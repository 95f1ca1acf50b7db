/**
 * The sandbox's hono application: middleware layers, then one router (routing.ts) over the API
 * areas' route tables, each route with its generation-1 and generation-2 side side by side.
 */
import { Hono } from "hono";
import type { SandboxState } from "./context.js";
import { errorResponse, type SandboxEnv } from "./http.js";
import {
  authenticate,
  checkHost,
  chooseDialect,
  guardControl,
  injectFaults,
  logRequests,
  rateLimit,
} from "./middleware.js";
import { AGENT_ROUTES } from "./routes/agents.js";
import { controlRoutes } from "./routes/control.js";
import { CRAWL_ROUTES } from "./routes/crawl.js";
import { EXTRACT_ROUTES } from "./routes/extract.js";
import { GENERATION_ROUTES } from "./routes/generations.js";
import { HEALTH_ROUTES } from "./routes/health.js";
import { JOB_ADMIN_ROUTES } from "./routes/job-admin.js";
import { JOB_ROUTES } from "./routes/jobs.js";
import { legacyRoutes } from "./routes/legacy.js";
import { MEDIA_ROUTES } from "./routes/media.js";
import { RESEARCH_ROUTES } from "./routes/research.js";
import { SEARCH_ROUTES } from "./routes/search.js";
import { SERP_ROUTES } from "./routes/serp.js";
import { TASK_ROUTES } from "./routes/tasks.js";
import { TEMPLATE_ROUTES } from "./routes/templates.js";
import { mount } from "./routing.js";
import { siteRoutes } from "./site/routes.js";

/** Every API area's route table, in the order they are matched. */
export const API_ROUTES = [
  // Before AGENT_ROUTES: the SDK-shaped POST /v1/agents/generations is a polled generation.
  GENERATION_ROUTES,
  EXTRACT_ROUTES,
  TASK_ROUTES,
  SERP_ROUTES,
  AGENT_ROUTES,
  TEMPLATE_ROUTES,
  CRAWL_ROUTES,
  HEALTH_ROUTES,
  JOB_ROUTES,
  SEARCH_ROUTES,
  RESEARCH_ROUTES,
  JOB_ADMIN_ROUTES,
  MEDIA_ROUTES,
];

export function createApp(state: SandboxState) {
  const app = new Hono<SandboxEnv>();
  app.use(
    "*",
    checkHost(state),
    guardControl(state),
    logRequests(state),
    chooseDialect(state),
    rateLimit(state),
    injectFaults(state),
    authenticate(state),
  );
  app.route("/site", siteRoutes(state));
  app.route("/_sandbox", controlRoutes(state));
  app.route("/", mount(state, ...API_ROUTES));
  app.route("/", legacyRoutes(state));
  app.notFound((c) => errorResponse(c, 404, `No route for ${c.req.method} ${c.req.path}`));
  app.onError((err, c) =>
    errorResponse(c, 500, `Internal error: ${err instanceof Error ? err.message : String(err)}`),
  );
  return app;
}
