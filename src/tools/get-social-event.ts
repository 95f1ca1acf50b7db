/**
 * `get_social_event`: the legacy realtime endpoint
 * (`{legacy_base_url}/api/v1/realtime/social/{platform}/v1/events/{eventId}/details`, Basic
 * auth). Toolset `legacy`: registered only when `WEBDATA_LEGACY_AUTH` is set.
 */
import { z } from "zod";
import { clip, DEFAULT_MAX_CHARS } from "./result.js";
import { defineTool } from "./tool.js";

export const getSocialEvent = defineTool({
  name: "get_social_event",
  title: "Social event details",
  description:
    "Details of one public event on a social platform (time, place, hosts, guest counts) from the legacy realtime API.",
  toolset: "legacy",
  examples: [{ platform: "eventbook", event_id: "1234567890" }],
  input: () => ({
    platform: z
      .string()
      .regex(
        /^[A-Za-z0-9][A-Za-z0-9_-]{0,39}$/,
        "a platform name such as the social network's, letters and digits",
      )
      .describe("Social platform name"),
    event_id: z
      .string()
      .regex(/^[A-Za-z0-9_-]{1,100}$/, "an event id: letters, digits, _ or -")
      .describe("The platform's event id"),
    transform: z.boolean().default(true).describe("false returns the raw record"),
  }),
  output: () => ({
    event: z.record(z.string(), z.unknown()).optional(),
    raw: z.record(z.string(), z.unknown()).optional().describe("transform: false"),
  }),
  readOnly: true,
  async handler(args, ctx) {
    const opts = { signal: ctx.signal };
    if (!args.transform) {
      const raw = await ctx.client.socialEventRaw(args.platform, args.event_id, opts);
      const json = JSON.stringify(raw, null, 1);
      return { structured: { raw }, text: `Raw event record:\n${clip(json, DEFAULT_MAX_CHARS).text}` };
    }
    const { event } = await ctx.client.socialEvent(args.platform, args.event_id, { transform: true }, opts);
    const when = [event.start_timestamp, event.end_timestamp]
      .filter((t): t is number => typeof t === "number")
      .map((t) => new Date(t * (t < 1e12 ? 1000 : 1)).toISOString());
    const lines = [
      `${event.name} (${event.id})${event.is_canceled ? " — CANCELED" : ""}`,
      when.length ? `When: ${when.join(" → ")}${event.timezone ? ` (${event.timezone})` : ""}` : "",
      event.place ? `Where: ${event.place.name}` : "",
      event.total_going_guests !== undefined
        ? `Going: ${event.total_going_guests}, interested: ${event.total_interested_guests ?? "?"}`
        : "",
      event.hosts?.length ? `Hosts: ${event.hosts.map((h) => h.name).join(", ")}` : "",
      event.url ? `URL: ${event.url}` : "",
      event.description ? `\n${event.description.slice(0, 2000)}` : "",
    ].filter(Boolean);
    return { structured: { event: event as Record<string, unknown> }, text: lines.join("\n") };
  },
});
