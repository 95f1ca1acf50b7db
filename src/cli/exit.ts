/** What the CLI writes to stderr, and how a command's failure ends the process. */

/** One line to stderr, named (stdout is the protocol's in stdio mode). */
export const note = (line: string) => process.stderr.write(`web-data-mcp: ${line}\n`);

/** What loading the configuration noticed (a base URL ending in a version, …), a line each. */
export function noteConfig(config: { notes?: readonly string[] }): void {
  for (const n of config.notes ?? []) note(`note: ${n}`);
}

function fail(message: string, code = 2): never {
  note(message);
  process.exit(code);
}

/** Errors of the user's making: their message alone, exit code 2. */
const ONE_LINE = new Set(["UsageError", "ConfigError", "SandboxOptionsError"]);

/** Ends the process on a command's failure: a usage or configuration error in one line, else fatal (1). */
export function exitOnError(error: unknown): never {
  const err = error instanceof Error ? error : new Error(String(error));
  if (ONE_LINE.has(err.name)) fail(err.message);
  fail(`fatal: ${err.message}`, 1);
}

/** The stdio server started by hand in a terminal: say what it is waiting for. */
export function noteWaitingOnTerminal(sandbox: boolean): void {
  if (!process.stdin.isTTY) return;
  note(
    `waiting for an MCP client on stdin (this is the stdio server${sandbox ? " on the sandbox" : ""}; Ctrl-C quits). To try a tool from the shell: web-data-mcp call serp_search --help`,
  );
}
