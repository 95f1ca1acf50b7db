/**
 * What "local" means to the sandbox: the loopback addresses it may send to and the Host names it
 * answers. The same rule as the HTTP server's guard (loopback names with the listening port, the
 * bound address when it is a specific one, then the operator's extra names).
 */

/** 127.0.0.0/8, ::1 (with or without brackets) and `localhost`. */
export function isLoopbackName(host: string): boolean {
  const h = host.replace(/^\[|\]$/g, "").toLowerCase();
  return h === "localhost" || h === "::1" || /^127(\.\d{1,3}){3}$/.test(h);
}

/** True when the address is the whole machine (every interface). */
export const isWildcard = (host: string) => host === "0.0.0.0" || host === "::" || host === "[::]";

/** The Host header values a sandbox bound to `host:port` answers. */
export function allowedHostValues(host: string, port: number, extra: readonly string[] = []): Set<string> {
  const names = ["localhost", "127.0.0.1", "[::1]"];
  if (!isWildcard(host)) names.push(host.includes(":") && !host.startsWith("[") ? `[${host}]` : host);
  const values = new Set(names.map((n) => `${n.toLowerCase()}:${port}`));
  for (const e of extra) if (e.trim()) values.add(e.trim().toLowerCase());
  return values;
}

/** A Host header is allowed when `name:port` or the bare name is listed (`*` allows every Host). */
export function hostAllowed(header: string | undefined, allowed: Set<string>): boolean {
  if (allowed.has("*")) return true;
  if (!header) return false;
  let url: URL;
  try {
    url = new URL(`http://${header}`);
  } catch {
    return false;
  }
  if (url.username || url.password || url.pathname !== "/" || url.search) return false;
  const name = url.hostname.toLowerCase();
  return allowed.has(`${name}:${url.port || "80"}`) || allowed.has(name);
}
