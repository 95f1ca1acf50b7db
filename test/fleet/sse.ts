/** Raw Streamable HTTP over fetch for the resumability tests: a POST whose SSE stream can be dropped, and the GET that resumes it. */
export interface SseEvent {
  id?: string;
  retry?: number;
  data: string;
  message?: any;
}

function parse(block: string): SseEvent {
  const event: SseEvent = { data: "" };
  for (const line of block.split("\n")) {
    const at = line.indexOf(":");
    if (at === 0) continue;
    const field = at < 0 ? line : line.slice(0, at);
    const value = at < 0 ? "" : line.slice(at + 1).replace(/^ /, "");
    if (field === "id") event.id = value;
    else if (field === "retry") event.retry = Number(value);
    else if (field === "data") event.data += value;
  }
  if (event.data.trim()) event.message = JSON.parse(event.data);
  return event;
}

export async function openSse(response: Response, abort: AbortController) {
  const reader = response.body!.pipeThrough(new TextDecoderStream()).getReader();
  let buffer = "";
  return {
    async next(): Promise<SseEvent> {
      for (;;) {
        const end = buffer.indexOf("\n\n");
        if (end >= 0) {
          const block = buffer.slice(0, end);
          buffer = buffer.slice(end + 2);
          if (block.split("\n").every((l) => l.startsWith(":") || !l)) continue;
          return parse(block);
        }
        const { value, done } = await reader.read();
        if (done) throw new Error("stream ended");
        buffer += value;
      }
    },
    async rest(): Promise<SseEvent[]> {
      const all: SseEvent[] = [];
      for (;;) {
        try {
          all.push(await this.next());
        } catch {
          return all;
        }
      }
    },
    abort: () => abort.abort(),
    /** Stops reading: the server sees the stream dropped. */
    cancel: () => reader.cancel(),
  };
}

export async function postCall(url: string, sessionId: string, id: number, params: object) {
  const abort = new AbortController();
  const response = await fetch(url, {
    method: "POST",
    signal: abort.signal,
    headers: {
      "content-type": "application/json",
      accept: "application/json, text/event-stream",
      "mcp-session-id": sessionId,
      "mcp-protocol-version": "2025-11-25",
    },
    body: JSON.stringify({ jsonrpc: "2.0", id, method: "tools/call", params }),
  });
  if (response.status !== 200) throw new Error(`POST answered ${response.status}: ${await response.text()}`);
  return openSse(response, abort);
}

export async function resume(url: string, sessionId: string, lastEventId: string): Promise<SseEvent[]> {
  const abort = new AbortController();
  const response = await fetch(url, {
    headers: {
      accept: "text/event-stream",
      "mcp-session-id": sessionId,
      "mcp-protocol-version": "2025-11-25",
      "last-event-id": lastEventId,
    },
    signal: abort.signal,
  });
  if (response.status !== 200) throw new Error(`GET answered ${response.status}: ${await response.text()}`);
  return (await openSse(response, abort)).rest();
}
