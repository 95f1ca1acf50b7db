/**
 * POST /v1/domain-health/check (generation 1 only) and GET /v1|v2/domain-knowledge/driver (the
 * SDK's field names on generation 2 and in the live dialect).
 */
import { Hono } from "hono";
import { DomainHealthRequestSchema } from "../../api/schemas.js";
import type { SandboxState } from "../context.js";
import { DIALECT_HEADER, dialectOf } from "../dialect.js";
import { domainHealth, driverFor, driverForAgent, hostOf, sdkDriverKnowledge } from "../health.js";
import { type Ctx, notFound, parseBody, type SandboxEnv, validationResponse } from "../http.js";

export function healthRoutes(state: SandboxState) {
  const r = new Hono<SandboxEnv>();
  const live = (c: Ctx) => dialectOf(c.req.header(DIALECT_HEADER), state.config.dialect) === "live";

  r.post("/v1/domain-health/check", async (c) => {
    const body = await parseBody(c, DomainHealthRequestSchema);
    if (!body.ok) return body.response;
    const now = Date.now();
    return c.json({ domains: body.data.domains.map((d) => domainHealth(d, now)) });
  });

  r.on("GET", ["/v1/domain-knowledge/driver", "/v2/domain-knowledge/driver"], (c) => {
    const sdkShape = c.req.path.startsWith("/v2/") || live(c);
    const url = c.req.query("url");
    const agentName = c.req.query("agent");
    if (url) {
      const host = hostOf(url);
      if (!host)
        return validationResponse(c, [
          {
            loc: ["query", "url"],
            msg: "Input should be a domain or a URL",
            type: "value_error",
            input: url,
          },
        ]);
      return c.json(sdkShape ? sdkDriverKnowledge(driverFor(host), { url }) : driverFor(host));
    }
    if (agentName) {
      const agent = state.catalog.get(agentName);
      if (!agent) return notFound(c, `Agent '${agentName}'`);
      const known = driverForAgent(agent);
      return c.json(sdkShape ? sdkDriverKnowledge(known, { agent: agentName }) : known);
    }
    return validationResponse(c, [
      { loc: ["query", "url"], msg: "Either url or agent is required", type: "missing" },
    ]);
  });

  return r;
}
