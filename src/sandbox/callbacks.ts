/** Webhook delivery. Failures (refused, timeout, non-2xx) are ignored: there is no retry. */

const TIMEOUT_MS = 5_000;

export class CallbackSender {
  private readonly controller = new AbortController();

  send(url: string, body: unknown, headers: Record<string, string> = {}): void {
    if (this.controller.signal.aborted) return;
    const signal = AbortSignal.any([this.controller.signal, AbortSignal.timeout(TIMEOUT_MS)]);
    fetch(url, {
      method: "POST",
      headers: { ...headers, "content-type": "application/json", "user-agent": "web-data-sandbox-callbacks" },
      body: JSON.stringify(body),
      signal,
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
