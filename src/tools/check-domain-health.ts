/**
 * `check_domain_health`: `POST /v1/domain-health/check` for 1..100 bare domains, and optionally
 * the driver knowledge (`GET /v1/domain-knowledge/driver`) of each. A URL instead of a bare
 * domain is refused before any request, naming the bare domain to pass.
 */
import { z } from "zod";
import { BareDomainSchema } from "../api/schemas.js";
import { ToolError } from "./errors.js";
import { plural } from "./result.js";
import { defineTool } from "./tool.js";

const MAX_DRIVER_DOMAINS = 10;
/** Recent windows kept per domain (the API gives 24, ~55 tokens each: most of a result's size). */
const HISTORY_KEPT = 6;

/** One window without its start and end times (`hours_ago` says when). */
function windowOf(w: Record<string, unknown>): Record<string, unknown> {
  const { window_start: _start, window_end: _end, ...rest } = w;
  return rest;
}

/** What to say about one bad domain: the bare host when a URL was given. */
function domainProblem(raw: string): string | undefined {
  const value = raw.trim();
  if (BareDomainSchema.safeParse(value).success) return undefined;
  let host: string | undefined;
  try {
    host = new URL(/^[a-z][a-z0-9+.-]*:\/\//i.test(value) ? value : `http://${value}`).hostname;
  } catch {
    host = undefined;
  }
  const suggestion = host && BareDomainSchema.safeParse(host).success ? ` — pass "${host}"` : "";
  return `"${raw}" is not a bare domain${suggestion}. Pass domains like example.com, not https://example.com/x.`;
}

const entry = () => z.looseObject({ domain: z.string(), status: z.string() });
type Entry = {
  domain: string;
  status: string;
  success_rate?: number;
  consecutive_bad_windows?: number;
  history?: Record<string, unknown>[];
  driver?: { driver: string; antibot_systems: string[]; requires_js_rendering?: boolean };
};

export const checkDomainHealth = defineTool({
  name: "check_domain_health",
  title: "Check domain health",
  description: "How well requests to these sites succeed now: status, success rate, recent windows.",
  toolset: "health",
  routes: ["checkDomainHealth", "domainDriver"],
  examples: [
    { domains: ["example.com"] },
    { domains: ["example.com", "shop.example.com"], include_driver: true },
  ],
  input: () => ({
    domains: z.array(z.string().min(1)).min(1).max(100).describe("Bare domains, e.g. example.com"),
    include_driver: z
      .boolean()
      .default(false)
      .describe(
        `Also the recommended driver, antibot systems, whether to render (up to ${MAX_DRIVER_DOMAINS} domains)`,
      ),
  }),
  output: () => ({
    domains: z
      .array(entry())
      .describe(
        `Per domain: success_rate, consecutive_bad_windows, history (last ${HISTORY_KEPT} windows), driver`,
      ),
  }),
  readOnly: true,
  async handler(args, ctx) {
    const problems = args.domains.map(domainProblem).filter((p): p is string => p !== undefined);
    if (problems.length > 0)
      throw new ToolError("invalid_argument", problems.join("\n"), { fields: problems });
    const domains = args.domains.map((d) => d.trim().toLowerCase());
    if (args.include_driver && domains.length > MAX_DRIVER_DOMAINS) {
      throw new ToolError(
        "invalid_argument",
        `include_driver works for up to ${MAX_DRIVER_DOMAINS} domains; ask for the driver of fewer domains.`,
      );
    }
    const opts = { signal: ctx.signal };
    const [health, drivers] = await Promise.all([
      ctx.client.checkDomainHealth({ domains }, opts),
      args.include_driver
        ? Promise.all(domains.map((url) => ctx.client.domainDriver({ url }, opts)))
        : undefined,
    ]);
    const rows = health.domains.map((d, i) => {
      const row: Entry = { domain: d.domain, status: d.status };
      if (d.success_rate !== undefined) row.success_rate = d.success_rate;
      if (d.consecutive_bad_windows !== undefined) row.consecutive_bad_windows = d.consecutive_bad_windows;
      if (d.history) row.history = d.history.slice(0, HISTORY_KEPT).map(windowOf);
      const drv = drivers?.[domains.indexOf(d.domain)] ?? drivers?.[i];
      if (drv) {
        row.driver = {
          driver: drv.driver,
          antibot_systems: drv.antibot_systems,
          ...(drv.requires_js_rendering !== undefined
            ? { requires_js_rendering: drv.requires_js_rendering }
            : {}),
        };
      }
      return row;
    });
    const lines = rows.map((r) => {
      const rate =
        r.success_rate !== undefined
          ? `, success ${(r.success_rate * (r.success_rate <= 1 ? 100 : 1)).toFixed(1)}%`
          : "";
      const n = r.consecutive_bad_windows;
      const bad = n ? `, ${plural(n, "bad window")} in a row` : "";
      const drv = r.driver
        ? `; driver ${r.driver.driver}, antibot: ${r.driver.antibot_systems.join(", ") || "none"}, JS rendering ${r.driver.requires_js_rendering === undefined ? "unknown" : r.driver.requires_js_rendering ? "required" : "not required"}`
        : "";
      return `- ${r.domain}: ${r.status}${rate}${bad}${drv}`;
    });
    return { structured: { domains: rows }, text: `Domain health:\n${lines.join("\n")}` };
  },
});
