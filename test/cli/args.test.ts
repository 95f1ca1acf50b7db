/**
 * The command line's parsing (src/cli/args.ts): no arguments, how MCP clients start the stdio
 * server, is answered without node:util's parser and must mean what the parser makes of it.
 */
import { parseArgs } from "node:util";
import { describe, expect, it } from "vitest";
import { NO_ARGUMENTS, parseCommandLine, UsageError } from "../../src/cli/args.js";

describe("parseCommandLine", () => {
  it("no arguments: what parseArgs makes of none (no flag of ours has a default)", () => {
    const parsed = parseCommandLine([]);
    expect(parsed).toBe(NO_ARGUMENTS);
    expect(parsed).toEqual(parseArgs({ args: [], options: {}, allowPositionals: true, strict: true }));
    expect(parsed.values.http).toBeUndefined();
    expect(parsed.values.sandbox).toBeUndefined();
  });

  it("parses flags and a command, and says what to do about an unknown flag", () => {
    expect(parseCommandLine(["call", "serp_search", "--sandbox"])).toEqual({
      values: { sandbox: true },
      positionals: ["call", "serp_search"],
    });
    expect(() => parseCommandLine(["--sandbx"])).toThrow(UsageError);
    expect(() => parseCommandLine(["--sandbx"])).toThrow(/did you mean --sandbox\?/);
  });
});
