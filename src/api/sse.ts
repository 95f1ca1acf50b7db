/**
 * A server-sent event stream read as it arrives (research run events, §14): `event:` and `data:`
 * fields, messages split on blank lines, `data` parsed as JSON when it is JSON. Ends when the
 * server closes the stream or `signal` aborts; a failure to connect or a non-2xx status ends it
 * with an `ApiError`. Not retried: a caller that needs the run's end confirms it by polling.
 */
import type { Dispatcher } from "undici";
import { ApiError } from "./errors.js";

export interface ServerEvent {
  event: string;
  data: unknown;
}

function parseMessage(block: string): ServerEvent | undefined {
  let event = "message";
  const data: string[] = [];
  for (const line of block.split(/\r?\n/)) {
    if (line.startsWith(":")) continue;
    const [field, ...rest] = line.split(":");
    const value = rest.join(":").replace(/^ /, "");
    if (field === "event") event = value;
    else if (field === "data") data.push(value);
  }
  if (data.length === 0) return undefined;
  const text = data.join("\n");
  try {
    return { event, data: JSON.parse(text) };
  } catch {
    return { event, data: text };
  }
}

export async function* streamEvents(
  dispatcher: Dispatcher,
  url: URL,
  authorization: string,
  signal: AbortSignal,
): AsyncGenerator<ServerEvent> {
  const label = `GET ${url.pathname}`;
  let res: Dispatcher.ResponseData;
  try {
    res = await dispatcher.request({
      origin: url.origin,
      path: `${url.pathname}${url.search}`,
      method: "GET",
      headers: { authorization, accept: "text/event-stream" },
      signal,
    });
  } catch {
    throw new ApiError({
      code: signal.aborted ? "aborted" : "network_error",
      message: `${label} could not be read`,
    });
  }
  if (res.statusCode < 200 || res.statusCode >= 300) {
    await res.body.dump().catch(() => {});
    const code = res.statusCode === 404 ? "not_found" : "upstream_error";
    throw new ApiError({ code, status: res.statusCode, message: `${label} answered ${res.statusCode}` });
  }
  let buffer = "";
  // A character's bytes may be split between chunks: the decoder keeps a partial one for the next.
  const decoder = new TextDecoder("utf-8");
  try {
    for await (const chunk of res.body) {
      buffer += decoder.decode(chunk, { stream: true });
      for (let end = buffer.search(/\r?\n\r?\n/); end >= 0; end = buffer.search(/\r?\n\r?\n/)) {
        const message = parseMessage(buffer.slice(0, end));
        buffer = buffer.slice(buffer.slice(end).match(/^\r?\n\r?\n/)![0].length + end);
        if (message) yield message;
      }
    }
  } catch {
    // The stream broke or was aborted: what arrived has been given; polling settles the rest.
  } finally {
    res.body.destroy();
  }
}
