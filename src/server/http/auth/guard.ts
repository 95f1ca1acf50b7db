/**
 * Request guards of the HTTP transport: Host/Origin allow-lists (DNS-rebinding protection) and
 * the bearer access token (constant-time compare). Pure functions over headers, so they are
 * tested without a socket.
 */
import { createHash, timingSafeEqual } from "node:crypto";

export interface AllowList {
  /** `host:port` entries match exactly; a bare `host` matches any port; `*` allows every Host. */
  hosts: string[];
  /** Full origins (`scheme://host[:port]`), compared after normalisation; `*` allows every Origin. */
  origins: string[];
}

export interface Refusal {
  status: 401 | 403;
  message: string;
}

const LOOPBACK_NAMES = ["localhost", "127.0.0.1", "[::1]"];

export function isLoopbackHost(host: string): boolean {
  const h = host.replace(/^\[|\]$/g, "").toLowerCase();
  return h === "localhost" || h === "::1" || /^127(\.\d{1,3}){3}$/.test(h);
}

/** `::1` → `[::1]`; names are lower-cased. */
function hostLiteral(host: string): string {
  const h = host.toLowerCase();
  return h.includes(":") && !h.startsWith("[") ? `[${h}]` : h;
}

/**
 * The default allow-list: loopback names with the listening port, the bound host when it is a
 * specific address, then the operator's extras and the public URL's host/origin.
 */
export function buildAllowList(options: {
  host: string;
  port: number;
  extraHosts?: string[];
  extraOrigins?: string[];
  publicUrl?: string;
}): AllowList {
  const hosts = new Set(LOOPBACK_NAMES.map((n) => `${n}:${options.port}`));
  const wildcard = options.host === "0.0.0.0" || options.host === "::";
  if (!wildcard) hosts.add(`${hostLiteral(options.host)}:${options.port}`);
  const origins = new Set([...hosts].map((h) => `http://${h}`));
  for (const h of options.extraHosts ?? []) {
    const entry = h.trim().toLowerCase();
    if (!entry) continue;
    hosts.add(entry);
    if (entry !== "*" && entry.includes(":") && !entry.endsWith("]")) {
      origins.add(`http://${entry}`);
      origins.add(`https://${entry}`);
    }
  }
  if (options.publicUrl) {
    const url = new URL(options.publicUrl);
    hosts.add(url.host.toLowerCase());
    origins.add(url.origin.toLowerCase());
  }
  for (const o of options.extraOrigins ?? []) {
    const entry = o.trim();
    if (entry) origins.add(entry === "*" ? "*" : (normaliseOrigin(entry) ?? entry.toLowerCase()));
  }
  return { hosts: [...hosts], origins: [...origins] };
}

function normaliseOrigin(origin: string): string | undefined {
  try {
    const url = new URL(origin);
    if (url.protocol !== "http:" && url.protocol !== "https:") return undefined;
    return url.origin.toLowerCase();
  } catch {
    return undefined;
  }
}

/** Splits a Host header into its name and port (`undefined` when none or unparsable). */
function parseHost(header: string): { name: string; port: string } | undefined {
  try {
    const url = new URL(`http://${header}`);
    if (url.username || url.password || url.pathname !== "/" || url.search || url.hash) return undefined;
    return { name: url.hostname.toLowerCase(), port: url.port || "80" };
  } catch {
    return undefined;
  }
}

/** The Host header as a URL writes it (`[0:0:0:0:0:0:0:1]:80` → `[::1]:80`); undefined if unparsable. */
export function canonicalHost(header: string | undefined): string | undefined {
  if (!header) return undefined;
  try {
    const url = new URL(`http://${header}`);
    if (url.username || url.password || url.pathname !== "/" || url.search || url.hash) return undefined;
    return url.host;
  } catch {
    return undefined;
  }
}

export function hostAllowed(header: string | undefined, allow: AllowList): boolean {
  if (allow.hosts.includes("*")) return true;
  if (!header) return false;
  const parsed = parseHost(header);
  if (!parsed) return false;
  const full = `${parsed.name}:${parsed.port}`;
  return allow.hosts.some((entry) => entry === full || entry === parsed.name);
}

/** A request without Origin (not from a browser) passes; `Origin: null` does not. */
export function originAllowed(header: string | undefined, allow: AllowList): boolean {
  if (header === undefined) return true;
  if (allow.origins.includes("*")) return true;
  const origin = normaliseOrigin(header);
  return origin !== undefined && allow.origins.includes(origin);
}

/** Host then Origin; `undefined` when both pass. Messages never echo the header values. */
export function checkHostAndOrigin(
  headers: { host?: string; origin?: string | string[] },
  allow: AllowList,
): Refusal | undefined {
  if (!hostAllowed(headers.host, allow)) {
    return { status: 403, message: "Forbidden: Host header is not allowed (see --allowed-hosts)" };
  }
  const origin = headers.origin;
  if (!originAllowed(Array.isArray(origin) ? origin[0] : origin, allow)) {
    return { status: 403, message: "Forbidden: Origin is not allowed (see --allowed-origins)" };
  }
  return undefined;
}

const digest = (s: string) => createHash("sha256").update(s, "utf8").digest();

/** Compares digests, so neither the content nor the length of the token leaks through timing. */
export function safeEqual(given: string, expected: string): boolean {
  return timingSafeEqual(digest(given), digest(expected));
}

/** Checks `Authorization: Bearer <token>`; no token configured means open. */
export function checkBearer(
  headers: { authorization?: string },
  token: string | undefined,
): Refusal | undefined {
  if (!token) return undefined;
  const match = /^Bearer[ ]+(\S+)\s*$/i.exec(headers.authorization ?? "");
  if (!match) {
    return { status: 401, message: "Unauthorized: send Authorization: Bearer <WEBDATA_HTTP_TOKEN>" };
  }
  if (!safeEqual(match[1], token)) {
    return { status: 401, message: "Unauthorized: the bearer token is not valid" };
  }
  return undefined;
}
