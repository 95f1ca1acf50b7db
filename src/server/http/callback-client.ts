import { AsyncLocalStorage } from "node:async_hooks";
/**
 * The HTTP endpoint's `WebDataClient`: the plain client with one hook in its send path, built
 * from the route table's data (`callback` and `work.mints` in src/api/routes.ts), not per method.
 * With a webhook registry, a submission to a route that takes a callback carries a callback URL
 * of this server where the route takes it (`callback_url`, an agent run's `params.callback_url`,
 * a crawl's `callback: {url, headers, events}` with the end events only) and the first id the
 * route mints is bound to it, so the waiting mechanism can complete on the webhook; a callback
 * the caller set itself is left alone. Every accepted submission that hands back a handle (a
 * route with a callback, a batch, a crawl) is also noted on the current call (`callContext`): if
 * this replica dies mid-call, a resume elsewhere answers with the handle instead of leaving the
 * client to submit the work again.
 */
import { WebDataClient, type WebDataClientOptions } from "../../api/client.js";
import type { RouteCall, RouteHook } from "../../api/route-hook.js";
import type { Route } from "../../api/routes.js";
import { valuesAt } from "../../api/work.js";
import type { CallbackRegistry } from "./callbacks.js";
import type { UpstreamHandle } from "./events.js";

/** The call being served (set by the MCP endpoint around each request). */
export const callContext = new AsyncLocalStorage<{ note(handle: UpstreamHandle): void }>();

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

/** The hook: the webhook where the route takes one, and the accepted handle noted on the call. */
export function callbackHook(callbacks: CallbackRegistry | undefined): RouteHook {
  return async (call, send) => {
    const noted = (answer: unknown) => {
      const handle = handleOf(call.route, answer);
      if (handle) callContext.getStore()?.note(handle);
      return answer;
    };
    // The crawl's callback carries headers, so its registration has a secret in them.
    const prepared = call.route.callback
      ? callbacks?.prepare({ header: call.route.callback === "crawl" })
      : undefined;
    const hooked = prepared && withCallback(call, prepared.url, prepared.headers);
    if (!prepared || !hooked) {
      prepared?.cancel();
      return noted(await send(call));
    }
    try {
      const answer = await send(hooked);
      const id = handleOf(call.route, answer)?.id;
      if (id) prepared.bind(id);
      else prepared.cancel();
      return noted(answer);
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
