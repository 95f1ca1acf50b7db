/** POST /v2/serp. */
import { Hono } from "hono";
import { SerpRequestSchema } from "../../api/schemas.js";
import type { SandboxState } from "../context.js";
import { parseBody, type SandboxEnv } from "../http.js";
import { serpResponse } from "../serp.js";

export function serpRoutes(state: SandboxState) {
  const r = new Hono<SandboxEnv>();
  r.post("/v2/serp", async (c) => {
    const body = await parseBody(c, SerpRequestSchema);
    if (!body.ok) return body.response;
    return c.json(serpResponse(body.data, state.location.siteUrl));
  });
  return r;
}
