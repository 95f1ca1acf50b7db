/**
 * POST /v1/domain-health/check (generation 1 only) and GET /v1|v2/domain-knowledge/driver (the
 * SDK's field names on generation 2 and in the live dialect).
 */
import { DomainHealthRequestSchema } from "../../api/schemas.js";
import * as live from "../dialect.js";
import { domainHealth, driverFor, driverForAgent, hostOf, sdkDriverKnowledge } from "../health.js";
import { notFound, parseBody, validationResponse } from "../http.js";
import type { Route, Shape } from "../routing.js";

/** Driver knowledge in the SDK's names, echoing what was asked. */
const sdkDriver: Shape = (b, { query }) => {
  const url = query.get("url");
  return sdkDriverKnowledge(b, url ? { url } : { agent: query.get("agent") ?? undefined });
};

export const HEALTH_ROUTES: Route[] = [
  {
    method: "POST",
    1: { path: "/v1/domain-health/check", live: live.health },
    handle: async (c) => {
      const body = await parseBody(c, DomainHealthRequestSchema);
      if (!body.ok) return body.response;
      const now = Date.now();
      return { domains: body.data.domains.map((d) => domainHealth(d, now)) };
    },
  },
  {
    method: "GET",
    1: { path: "/v1/domain-knowledge/driver", live: sdkDriver },
    2: { path: "/v2/domain-knowledge/driver", reply: sdkDriver },
    handle: (c, { state }) => {
      const url = c.req.query("url");
      const agentName = c.req.query("agent");
      if (url) {
        const host = hostOf(url);
        if (host) return driverFor(host);
        return validationResponse(c, [
          {
            loc: ["query", "url"],
            msg: "Input should be a domain or a URL",
            type: "value_error",
            input: url,
          },
        ]);
      }
      if (agentName) {
        const agent = state.catalog.get(agentName);
        return agent ? driverForAgent(agent) : notFound(c, `Agent '${agentName}'`);
      }
      return validationResponse(c, [
        { loc: ["query", "url"], msg: "Either url or agent is required", type: "missing" },
      ]);
    },
  },
];
