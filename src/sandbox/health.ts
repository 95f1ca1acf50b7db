/** Deterministic domain health and driver knowledge, derived from a hash of the domain. */
import type { AgentDetail } from "../api/schemas.js";
import { hash32, seeded } from "./hash.js";

const HOUR = 3_600_000;
type Status = "up" | "degraded" | "down";

const rateFor = (status: Status, random: () => number) => {
  const [low, high] = status === "up" ? [0.95, 1] : status === "degraded" ? [0.7, 0.9] : [0.05, 0.4];
  return Math.round((low + random() * (high - low)) * 1000) / 1000;
};

/** One domain's entry: 24 hourly windows, newest first; the current state is the latest window's. */
export function domainHealth(domain: string, now = Date.now()) {
  const h = hash32(domain.toLowerCase());
  const status: Status = h % 10 < 7 ? "up" : h % 10 < 9 ? "degraded" : "down";
  const random = seeded(`${domain}|health`);
  const badStreak = status === "up" ? 0 : 1 + (h % 6);
  const hourStart = Math.floor(now / HOUR) * HOUR;
  const history = Array.from({ length: 24 }, (_, hoursAgo) => {
    const windowStatus: Status = hoursAgo < badStreak ? status : random() < 0.1 ? "degraded" : "up";
    const start = hourStart - hoursAgo * HOUR;
    return {
      hours_ago: hoursAgo,
      window_start: new Date(start).toISOString(),
      window_end: new Date(start + HOUR).toISOString(),
      status: windowStatus,
      success_rate: rateFor(windowStatus, random),
    };
  });
  const recent = history.slice(0, 6);
  return {
    domain,
    status,
    success_rate: Math.round((recent.reduce((s, w) => s + w.success_rate, 0) / recent.length) * 1000) / 1000,
    consecutive_bad_windows: badStreak,
    history,
  };
}

const ANTIBOT = ["cloudflare", "akamai", "datadome", "perimeterx", "kasada"];
const LOCAL = /^(127\.0\.0\.1|localhost)(:\d+)?$/;

/** The recommended driver tier for a host; the sandbox's own host needs nothing special. */
export function driverFor(host: string) {
  if (LOCAL.test(host)) return { driver: "vx6", antibot_systems: [], requires_js_rendering: false };
  const h = hash32(host.toLowerCase());
  const tier = h % 3;
  const driver = ["vx6", "vx8", "vx10"][tier];
  const antibot = tier === 0 ? [] : ANTIBOT.filter((_, i) => (h >>> (i + 3)) & 1).slice(0, tier);
  return { driver, antibot_systems: antibot, requires_js_rendering: tier > 0 };
}

export function driverForAgent(agent: AgentDetail) {
  const host = (agent.domain ?? agent.name).replace(/^https?:\/\//, "").replace(/\/.*$/, "");
  return driverFor(host);
}

/** "https://a.com/x" or "a.com" → "a.com". */
export function hostOf(value: string): string | undefined {
  const candidate = /^[a-z][a-z0-9+.-]*:\/\//i.test(value) ? value : `http://${value}`;
  return URL.canParse(candidate) ? new URL(candidate).host : undefined;
}

const DRIVER_DESCRIPTIONS: Record<string, string> = {
  vx6: "Plain HTTP fetch, no browser: the fastest and cheapest",
  vx8: "Headless browser with JavaScript rendering",
  vx10: "Headless browser with residential proxies and antibot handling",
};

/**
 * Driver knowledge as the service's SDK types it (generation 2, and generation 1 in the live
 * dialect): `antibots` and `need_to_render` for the spec's `antibot_systems` and
 * `requires_js_rendering`, a `description` of the driver, and the query echoed.
 */
export function sdkDriverKnowledge(
  k: { driver: string; antibot_systems: string[]; requires_js_rendering: boolean },
  echo: { url?: string; agent?: string },
) {
  return {
    driver: k.driver,
    description: DRIVER_DESCRIPTIONS[k.driver] ?? k.driver,
    antibots: k.antibot_systems,
    need_to_render: k.requires_js_rendering,
    ...echo,
  };
}
