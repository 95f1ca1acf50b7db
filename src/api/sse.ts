/**
 * A server-sent event stream read as it arrives (research run events, §14), decoded by
 * `eventsource-parser`: each event's type (default `message`) and `data`, parsed as JSON when it
 * is JSON. Ends when the
 * server closes the stream or `signal` aborts; a failure to connect or a non-2xx status ends it
 * with an `ApiError`. Not retried: a caller that needs the run's end confirms it by polling.
 */
import { createParser, type EventSourceMessage } from "eventsource-parser";
import type { Dispatcher } from "undici";
import { ApiError } from "./errors.js";

export interface ServerEvent {
  event: string;
  data: unknown;
}

function toEvent(message: EventSourceMessage): ServerEvent {
  const event = message.event ?? "message";
  try {
    return { event, data: JSON.parse(message.data) };
  } catch {
    return { event, data: message.data };
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
  const arrived: ServerEvent[] = [];
  const parser = createParser({ onEvent: (message) => void arrived.push(toEvent(message)) });
  // A character's bytes may be split between chunks: the decoder keeps a partial one for the next.
  const decoder = new TextDecoder("utf-8");
  try {
    for await (const chunk of res.body) {
      parser.feed(decoder.decode(chunk, { stream: true }));
      yield* arrived.splice(0);
    }
  } catch {
    // The stream broke or was aborted: what arrived has been given; polling settles the rest.
  } finally {
    res.body.destroy();
  }
}
