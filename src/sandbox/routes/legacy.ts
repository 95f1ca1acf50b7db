/**
 * {legacy_base_url}/api/v1/realtime/social/{platform}/v1/events/{eventId}/details?transform=,
 * GET or POST, Basic auth (checked by the auth middleware). An eventId starting with "missing"
 * gives a 404, so clients can test that path.
 */
import { Hono } from "hono";
import { z } from "zod";
import type { SandboxState } from "../context.js";
import { type Ctx, notFound, parseQuery, type SandboxEnv } from "../http.js";
import { rawSocialEvent, socialEvent } from "../social.js";

const Query = z.object({ transform: z.enum(["true", "false"]).default("true") });

export function legacyRoutes(_state: SandboxState) {
  const r = new Hono<SandboxEnv>();
  const details = (c: Ctx) => {
    const query = parseQuery(c, Query);
    if (!query.ok) return query.response;
    const platform = c.req.param("platform") ?? "";
    const eventId = c.req.param("eventId") ?? "";
    if (eventId.startsWith("missing")) return notFound(c, `Event '${eventId}'`);
    if (query.data.transform === "false") return c.json(rawSocialEvent(platform, eventId));
    return c.json({ event: socialEvent(platform, eventId) });
  };
  const path = "/legacy/api/v1/realtime/social/:platform/v1/events/:eventId/details";
  r.get(path, details);
  r.post(path, details);
  return r;
}
