/**
 * The status words a client met that no phase knows (a new word in the API), each noted once:
 * held by the client runtime, so a note belongs to the clients that share it and a new runtime
 * (a test, another server in the process) starts with none noted. At most 100 words are kept.
 */
const MAX_NOTED = 100;

export class UnknownStates {
  readonly #noted = new Set<string>();

  /** `sink` gets each note (stderr by default; never stdout, which may carry stdio MCP). */
  constructor(private readonly sink: (message: string) => void = (m) => process.stderr.write(`${m}\n`)) {}

  /** Notes an unknown `state` of `kind` the first time it is met. */
  note(kind: string, state: string): void {
    const key = `${kind}:${state}`;
    if (this.#noted.has(key) || this.#noted.size >= MAX_NOTED) return;
    this.#noted.add(key);
    try {
      this.sink(`web-data-mcp: unknown ${kind} state "${state.slice(0, 40)}"; treating it as still running`);
    } catch {
      // a failing log sink must not break a poll
    }
  }
}
