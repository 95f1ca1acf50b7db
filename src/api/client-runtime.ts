/**
 * What clients share, held by whoever makes them instead of by the process: the rate limiters by
 * API key and origin, what was learnt of each base URL's API generations, and the unknown status words already logged. A process serving
 * one client (stdio, the CLI) lets the client make its own; the HTTP server makes one for all of
 * its clients (one per key), so a key's requests share one limiter and every client knows the
 * generation of an id another made. Two runtimes share nothing (tests, replicas in one process).
 */
import { GenerationMemories } from "./generations.js";
import { Limiters } from "./rate-limiter.js";
import { UnknownStates } from "./unknown-states.js";

export class ClientRuntime {
  readonly limiters = new Limiters();
  readonly generations = new GenerationMemories();
  /** Unknown status words, each logged once to `log` (stderr by default). */
  readonly unknownStates: UnknownStates;

  constructor(options: { log?: (message: string) => void } = {}) {
    this.unknownStates = new UnknownStates(options.log);
  }
}
