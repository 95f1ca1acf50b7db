/**
 * The one hook in the client's send path: every call through the route table (routes.ts) passes
 * through the client's hook, which sees the route (its `work` and `callback` data) and the
 * request, may change the request, and gets the answer (or the error) before the caller does.
 * Over HTTP the ownership hook (src/server/ownership.ts) and the webhook hook
 * (src/server/http/callback-client.ts) are built from the route table's data, not per method.
 */
import type { Route, RouteName } from "./routes.js";

type Query = Record<string, string | number | boolean | undefined>;

export interface RouteInput {
  /** Values of the route's `{name}` path placeholders, one path segment each. */
  params?: Record<string, string>;
  body?: unknown;
  query?: Query;
}

export interface RouteCall {
  name: RouteName;
  route: Route;
  input: RouteInput;
}

export type RouteHook = (call: RouteCall, send: (call: RouteCall) => Promise<unknown>) => Promise<unknown>;

/** `outer` around `inner` (either may be absent). */
export function chainHooks(
  inner: RouteHook | undefined,
  outer: RouteHook | undefined,
): RouteHook | undefined {
  if (!inner) return outer;
  if (!outer) return inner;
  return (call, send) => outer(call, (c) => inner(c, send));
}
