/** POST /v1/domain-health/check and GET /v1/domain-knowledge/driver. */
import { Hono } from "hono";
import { DomainHealthRequestSchema } from "../../api/schemas.js";
import type { SandboxState } from "../context.js";
import { domainHealth, driverFor, driverForAgent, hostOf } from "../health.js";
import { notFound, parseBody, type SandboxEnv, validationResponse } from "../http.js";

export function healthRoutes(state: SandboxState) {
  const r = new Hono<SandboxEnv>();

  r.post("/v1/domain-health/check", async (c) => {
    const body = await parseBody(c, DomainHealthRequestSchema);
    if (!body.ok) return body.response;
    const now = Date.now();
    return c.json({ domains: body.data.domains.map((d) => domainHealth(d, now)) });
  });

  r.get("/v1/domain-knowledge/driver", (c) => {
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
      return c.json(driverFor(host));
    }
    if (agentName) {
      const agent = state.catalog.get(agentName);
      return agent ? c.json(driverForAgent(agent)) : notFound(c, `Agent '${agentName}'`);
    }
    return validationResponse(c, [
      { loc: ["query", "url"], msg: "Either url or agent is required", type: "missing" },
    ]);
  });

  return r;
}
