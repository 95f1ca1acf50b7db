/**
 * Call routing for cancellation: every request in flight on this replica, by session and request
 * id, so a `notifications/cancelled` that arrives on another POST — each POST has a fresh server
 * that knows no other call — reaches the call it names, and a session that ends (DELETE, or
 * evicted at its principal's cap) cancels all of its calls. With a fleet, `announce` tells the
 * other replicas (Redis pub/sub) and `receive` takes their announcements.
 */
import type { RequestId } from "@modelcontextprotocol/sdk/types.js";
import type { AnsweringTransport } from "../answering-transport.js";

/** Announcements between replicas. */
export type CallAnnouncement =
  | { kind: "cancel"; session: string; request: RequestId; reason: string }
  | { kind: "end"; session: string };

export interface CallAnnouncer {
  publish(announcement: CallAnnouncement): void;
}

/** What else a session's end stops beside its calls (MCP task work, kept events). */
export type SessionEnded = (sessionId: string) => void;

export class CallRegistry {
  readonly #bySession = new Map<string, Set<AnsweringTransport>>();
  readonly #announcer: CallAnnouncer | undefined;
  readonly #ended: SessionEnded;

  constructor(ended: SessionEnded, announcer?: CallAnnouncer) {
    this.#ended = ended;
    this.#announcer = announcer;
  }

  /** Tracks a POST's transport for `session` until the returned function is called. */
  add(session: string, transport: AnsweringTransport): () => void {
    const set = this.#bySession.get(session) ?? new Set<AnsweringTransport>();
    set.add(transport);
    this.#bySession.set(session, set);
    return () => {
      set.delete(transport);
      if (set.size === 0 && this.#bySession.get(session) === set) this.#bySession.delete(session);
    };
  }

  /** The client cancelled `request` of `session`: here if it runs here, else on every replica. */
  cancel(session: string, request: RequestId, reason: string): void {
    if (!this.#cancelHere(session, request, reason)) {
      this.#announcer?.publish({ kind: "cancel", session, request, reason });
    }
  }

  /** The session ended: its calls and work stop here and on every replica. */
  endSession(session: string): void {
    this.#endHere(session);
    this.#announcer?.publish({ kind: "end", session });
  }

  /** Another replica's announcement. */
  receive(announcement: CallAnnouncement): void {
    if (announcement.kind === "cancel") {
      this.#cancelHere(announcement.session, announcement.request, announcement.reason);
    } else {
      this.#endHere(announcement.session);
    }
  }

  #cancelHere(session: string, request: RequestId, reason: string): boolean {
    for (const transport of this.#bySession.get(session) ?? []) {
      if (transport.cancel(request, reason)) return true;
    }
    return false;
  }

  #endHere(session: string): void {
    for (const transport of this.#bySession.get(session) ?? []) {
      for (const id of [...transport.pending]) transport.cancel(id, "the session ended");
    }
    this.#ended(session);
  }
}

/** The announcement in a pub/sub message, or undefined when it is not one. */
export function parseAnnouncement(text: string): CallAnnouncement | undefined {
  try {
    const value = JSON.parse(text) as Partial<CallAnnouncement> & Record<string, unknown>;
    if (typeof value.session !== "string") return undefined;
    if (value.kind === "end") return { kind: "end", session: value.session };
    const request = value.request;
    if (value.kind === "cancel" && (typeof request === "string" || typeof request === "number")) {
      return { kind: "cancel", session: value.session, request, reason: String(value.reason ?? "") };
    }
  } catch {
    // not ours
  }
  return undefined;
}
