/**
 * Prometheus `/metrics` (the telemetry's `scrape`): beside `/mcp` behind the same authorization,
 * or alone on its own port (`--metrics-port`) for a scraper inside the network.
 */
import { once } from "node:events";
import { createServer as createNodeServer, type Server } from "node:http";
import { RESPONSE_ALREADY_SENT } from "@hono/node-server/utils/response";
import type { MiddlewareHandler } from "hono";
import type { Telemetry } from "../../telemetry/index.js";
import type { HttpApp } from "./app.js";
import type { HttpEnv } from "./auth/bearer.js";

type Scrape = NonNullable<Telemetry["scrape"]>;

/** `GET /metrics` beside `/mcp`, behind the same bearer check (`requireBearer`). */
export function metricsRoutes(
  app: HttpApp,
  bearer: MiddlewareHandler<HttpEnv>,
  scrape: Scrape | undefined,
): void {
  if (!scrape) return;
  app.get("/metrics", bearer, (c) => {
    const { incoming, outgoing } = c.env;
    scrape(incoming, outgoing);
    return RESPONSE_ALREADY_SENT;
  });
}

/** `/metrics` alone on its own port, without authorization. */
export async function listenMetrics(scrape: Scrape, host: string, port: number): Promise<Server> {
  const metrics = createNodeServer((req, res) => {
    const path = new URL(req.url ?? "/", "http://localhost").pathname;
    if (path === "/metrics" && req.method === "GET") return scrape(req, res);
    res.writeHead(404, { "content-type": "application/json" });
    res.end(JSON.stringify({ error: "not found: metrics are at /metrics" }));
  });
  metrics.listen(port, host);
  // Rejects on an "error" (e.g. the port is taken) before "listening".
  await once(metrics, "listening");
  return metrics;
}
