/** Agent search (§4): POST /v2/search and, in generation 1, POST /v1/search (the same shape). */
import { Hono } from "hono";
import { SearchRequestSchema } from "../../api/schemas-v2.js";
import type { SandboxState } from "../context.js";
import { parseBody, type SandboxEnv } from "../http.js";
import { searchResponse } from "../lifecycle/search.js";

export function searchRoutes(state: SandboxState) {
  const r = new Hono<SandboxEnv>();
  for (const path of ["/v2/search", "/v1/search"]) {
    r.post(path, async (c) => {
      const body = await parseBody(c, SearchRequestSchema);
      if (!body.ok) return body.response;
      return c.json(searchResponse(body.data, state.location.siteUrl));
    });
  }
  return r;
}
