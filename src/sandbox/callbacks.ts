/**
 * Webhook delivery. The sandbox stays local: it POSTs only to a loopback address (127.0.0.0/8,
 * ::1, localhost, sent to 127.0.0.1), and only when the sandbox was started with
 * `allowCallbacks` (`--allow-callbacks`); every other callback is recorded as not sent.
 * Failures (refused, timeout, non-2xx) are ignored: there is no retry.
 */
import { isLoopbackName } from "./loopback.js";
import type { CallbackLogEntry } from "./types.js";

const TIMEOUT_MS = 5_000;
const MAX_LOG = 1_000;

/** The URL to send to, or why it is not sent. `localhost` goes to 127.0.0.1 (no name lookup). */
export function callbackTarget(raw: string, allowed: boolean): { url: string } | { refused: string } {
  if (!allowed) return { refused: "callbacks are off (start the sandbox with --allow-callbacks)" };
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return { refused: "not a URL" };
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") return { refused: "not http(s)" };
  if (!isLoopbackName(url.hostname)) return { refused: "not a loopback address: the sandbox stays local" };
  if (url.hostname.toLowerCase() === "localhost") url.hostname = "127.0.0.1";
  return { url: url.href };
}

export class CallbackSender {
  private readonly controller = new AbortController();
  /** Every callback asked for, sent or not, oldest first. */
  readonly log: CallbackLogEntry[] = [];

  constructor(private readonly allowed: () => boolean) {}

  send(url: string, body: unknown, headers: Record<string, string> = {}): void {
    if (this.controller.signal.aborted) return;
    const target = callbackTarget(url, this.allowed());
    this.log.push({
      url,
      at: Date.now(),
      sent: "url" in target,
      refused: "refused" in target ? target.refused : undefined,
    });
    if (this.log.length > MAX_LOG) this.log.splice(0, this.log.length - MAX_LOG);
    if (!("url" in target)) return;
    const signal = AbortSignal.any([this.controller.signal, AbortSignal.timeout(TIMEOUT_MS)]);
    fetch(target.url, {
      method: "POST",
      headers: { ...headers, "content-type": "application/json", "user-agent": "web-data-sandbox-callbacks" },
      body: JSON.stringify(body),
      signal,
      redirect: "manual",
    })
      .then((res) => res.body?.cancel())
      .catch(() => {
        // delivery failures are not retried and must never crash the sandbox
      });
  }

  close(): void {
    this.controller.abort();
  }
}
