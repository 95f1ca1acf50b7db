/** The sandbox's hono application: middleware layers, one routes file per API area. */
import { Hono } from "hono";
import type { SandboxState } from "./context.js";
import { CrawlStore } from "./crawl.js";
import { liveDialect } from "./dialect.js";
import { generation2Shapes } from "./generation2.js";
import { errorResponse, type SandboxEnv } from "./http.js";
import { authenticate, checkHost, guardControl, injectFaults, logRequests, rateLimit } from "./middleware.js";
import { agentRoutes } from "./routes/agents.js";
import { controlRoutes } from "./routes/control.js";
import { crawlRoutes } from "./routes/crawl.js";
import { crawlAdminRoutes } from "./routes/crawl-admin.js";
import { extractRoutes } from "./routes/extract.js";
import { generationRoutes } from "./routes/generations.js";
import { healthRoutes } from "./routes/health.js";
import { jobAdminRoutes } from "./routes/job-admin.js";
import { jobRoutes } from "./routes/jobs.js";
import { legacyRoutes } from "./routes/legacy.js";
import { mediaRoutes } from "./routes/media.js";
import { researchRoutes } from "./routes/research.js";
import { searchRoutes } from "./routes/search.js";
import { serpRoutes } from "./routes/serp.js";
import { taskRoutes } from "./routes/tasks.js";
import { templateRoutes } from "./routes/templates.js";
import { siteRoutes } from "./site/routes.js";

export function createApp(state: SandboxState) {
  const app = new Hono<SandboxEnv>();
  app.use(
    "*",
    checkHost(state),
    guardControl(state),
    logRequests(state),
    liveDialect(() => state.config.dialect),
    rateLimit(state),
    injectFaults(state),
    authenticate(state),
    generation2Shapes(state),
  );
  app.route("/site", siteRoutes(state));
  app.route("/_sandbox", controlRoutes(state));
  const crawls = new CrawlStore(state);
  const areas = [
    // Before agentRoutes: the SDK-shaped POST /v1/agents/generations is a polled generation.
    generationRoutes(state),
    extractRoutes(state),
    taskRoutes(state),
    serpRoutes(state),
    agentRoutes(state),
    templateRoutes(state),
    crawlRoutes(state, crawls),
    healthRoutes(state),
    jobRoutes(state),
    legacyRoutes(state),
    searchRoutes(state),
    researchRoutes(state),
    crawlAdminRoutes(crawls),
    jobAdminRoutes(state),
    mediaRoutes(state),
  ];
  for (const routes of areas) app.route("/", routes);
  app.notFound((c) => errorResponse(c, 404, `No route for ${c.req.method} ${c.req.path}`));
  app.onError((err, c) =>
    errorResponse(c, 500, `Internal error: ${err instanceof Error ? err.message : String(err)}`),
  );
  return app;
}
