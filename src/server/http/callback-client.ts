/**
 * The HTTP endpoint's `WebDataClient`: the plain client with one hook in its send path, built
 * from the route table's data (`callback` and `work.mints` in src/api/routes.ts), not per method.
 * With a webhook registry, a submission to a route that takes a callback carries a callback URL
 * of this server where the route takes it (`callback_url`, an agent run's `params.callback_url`,
 * a crawl's `callback: {url, headers, events}` with the end events only) and the first id the
 * route mints is bound to it, so the waiting mechanism can complete on the webhook; a callback
 * the caller set itself is left alone. `noteHandles` is the request's own hook (its
 * `RequestScope.hook`, put around each of its calls' clients): every accepted submission that
 * hands back a handle (a route with a callback, a batch, a crawl) is noted on the request's
 * stream, so that if this replica dies mid-call, a resume elsewhere answers with the handle
 * instead of leaving the client to submit the work again.
 */
import { WebDataClient, type WebDataClientOptions } from "../../api/client.js";
import type { RouteCall, RouteHook } from "../../api/route-hook.js";
import type { Route } from "../../api/routes.js";
import { valuesAt } from "../../api/work.js";
import type { CallbackRegistry } from "./callbacks.js";
import type { UpstreamHandle } from "./events.js";

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === "object" && v !== null && !Array.isArray(v);

/** The handle a route's answer is resumed by: its first minted id, for the kinds a resume answers with. */
function handleOf(route: Route, answer: unknown): UpstreamHandle | undefined {
  if (route.work === "none" || route.kind !== "submission") return undefined;
  const first = route.work.mints?.[0];
  if (!first || !(route.callback || first.kind === "batch" || first.kind === "crawl")) return undefined;
  if (first.kind !== "task" && first.kind !== "batch" && first.kind !== "crawl") return undefined;
  const [id] = valuesAt(answer, first.at);
  return id ? { kind: first.kind, id } : undefined;
}

/** `body` with `value` at the dotted `path` (objects on the way copied, made when absent). */
function withValueAt(body: unknown, path: string, value: unknown): Obj {
  const [head, ...rest] = path.split(".");
  const obj = isObj(body) ? body : {};
  if (head === undefined) return obj;
  return { ...obj, [head]: rest.length === 0 ? value : withValueAt(obj[head], rest.join("."), value) };
}

/** The request with this server's callback where the route takes one; undefined when the caller set its own. */
function withCallback(call: RouteCall, url: string, headers: Record<string, string>): RouteCall | undefined {
  const { callback } = call.route;
  const body = call.input.body;
  if (callback === undefined) return undefined;
  if (callback === "crawl") {
    if (isObj(body) && body.callback !== undefined) return undefined;
    const value = { url, headers, events: ["completed", "failed"] };
    return { ...call, input: { ...call.input, body: withValueAt(body, "callback", value) } };
  }
  if (valuesAt(body, callback.url).length > 0) return undefined;
  return { ...call, input: { ...call.input, body: withValueAt(body, callback.url, url) } };
}

/** A request's hook: each accepted handle its calls' submissions hand back goes to `note`. */
export function noteHandles(note: (handle: UpstreamHandle) => void): RouteHook {
  return async (call, send) => {
    const answer = await send(call);
    const handle = handleOf(call.route, answer);
    if (handle) note(handle);
    return answer;
  };
}

/** The client's hook: the webhook where the route takes one. */
export function callbackHook(callbacks: CallbackRegistry | undefined): RouteHook {
  return async (call, send) => {
    // The crawl's callback carries headers, so its registration has a secret in them.
    const prepared = call.route.callback
      ? callbacks?.prepare({ header: call.route.callback === "crawl" })
      : undefined;
    const hooked = prepared && withCallback(call, prepared.url, prepared.headers);
    if (!prepared || !hooked) {
      prepared?.cancel();
      return send(call);
    }
    try {
      const answer = await send(hooked);
      const id = handleOf(call.route, answer)?.id;
      if (id) prepared.bind(id);
      else prepared.cancel();
      return answer;
    } catch (error) {
      prepared.cancel();
      throw error;
    }
  };
}

/** The HTTP endpoint's client of `options` (see the module comment). */
export function callbackClient(options: WebDataClientOptions, callbacks?: CallbackRegistry): WebDataClient {
  return new WebDataClient(options, { hook: callbackHook(callbacks) });
}
