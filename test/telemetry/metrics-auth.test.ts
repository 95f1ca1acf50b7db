/**
 * Where `/metrics` is served and who may read it: beside `/mcp` it needs the same authorization;
 * on its own `metricsPort` it needs none and is gone from the main port; without metrics it is 404.
 */
import { describe, expect, it } from "vitest";
import type { HttpServer } from "../../src/server/http.js";
import { registryToolNames } from "../../src/server/tool-names.js";
import { startTelemetry } from "../../src/telemetry/index.js";
import { useHttpServerOn } from "../helpers/http-server.js";
import { useSandbox } from "../helpers/sandbox.js";
import { raw } from "../http/helpers.js";

const KEY = "wdk_metricsKEY1234567";
const TOKEN = "metrics-test-token-0123456789";

const sandbox = useSandbox({ key: KEY });
const guarded = useHttpServerOn(sandbox, KEY, async () => ({
  server: {
    token: TOKEN,
    telemetry: await startTelemetry({ prometheus: true, toolNames: registryToolNames }),
  },
}));
const separate = useHttpServerOn(sandbox, KEY, async () => ({
  server: {
    token: TOKEN,
    metricsPort: 0,
    telemetry: await startTelemetry({ prometheus: true, toolNames: registryToolNames }),
  },
}));
const plain = useHttpServerOn(sandbox, KEY);

const metricsOf = (server: HttpServer) => server.url.replace(/\/mcp$/, "/metrics");

describe("/metrics access", () => {
  it("metrics(beside /mcp): the same bearer token is required", async () => {
    expect(guarded.metricsUrl).toBe(metricsOf(guarded));
    expect((await raw(metricsOf(guarded))).status).toBe(401);
    const ok = await raw(metricsOf(guarded), { headers: { authorization: `Bearer ${TOKEN}` } });
    expect(ok.status).toBe(200);
    expect(ok.body).toContain("webdata_sessions_open");
  });

  it("metrics(--metrics-port): served on its own port without authorization, not on the main one", async () => {
    expect(separate.metricsUrl).toBeDefined();
    expect(separate.metricsUrl).not.toBe(metricsOf(separate));
    const scraped = await raw(separate.metricsUrl as string);
    expect(scraped.status).toBe(200);
    expect(scraped.body).toContain("target_info");
    const main = await raw(metricsOf(separate), { headers: { authorization: `Bearer ${TOKEN}` } });
    expect(main.status).toBe(404);
  });

  it("metrics(off): no /metrics route", async () => {
    expect(plain.metricsUrl).toBeUndefined();
    expect((await raw(metricsOf(plain))).status).toBe(404);
  });
});
