// The worst agent `pattern` time (issue 23): the built parameter compiler (dist/agents, the code
// every `agent_*` and `run_agent` call's arguments go through) against the patterns that make a
// backtracking engine exponential, with near-miss arguments of 30 and 100,001 characters. Beside
// it the backtracking engine the rules ran on before (V8's RegExp) on a 24-character near-miss (median of 5):
// each character doubles its time, so 30 characters are not run (17.2 s measured at ae4dbc2).
const EVIL = ["^(a+)+$", "^(a|a)*$", "^(\\w+\\s?)*$", "^([a-z0-9]+\\.?)+[a-z]$"];
const BACKTRACKING_CHARS = 24;

const prop = (pattern) => ({
  name: "handle",
  type: "string",
  required: false,
  description: "The handle",
  rules: [`pattern:${pattern}`],
  examples: null,
  default: null,
  is_localization_param: false,
  is_pagination_param: false,
});

/** Median of 5 timings of `fn` (one reading moves with the shared machine's load). */
function timed(fn) {
  const times = [];
  for (let i = 0; i < 5; i++) {
    const started = performance.now();
    fn();
    times.push(performance.now() - started);
  }
  return times.sort((a, b) => a - b)[2];
}

export async function patternRows() {
  const { buildParamSchema } = await import("../dist/agents/input-schema.js");
  const worst = new Map([30, 100_001].map((chars) => [chars, { ms: 0, pattern: "" }]));
  for (const pattern of EVIL) {
    const { schema } = buildParamSchema(prop(pattern));
    schema.safeParse("aaaa"); // the engine compiles the pattern on first use: not the argument's cost
    for (const chars of [30, 100_001]) {
      const argument = `${"a".repeat(chars - 1)}!`;
      const ms = timed(() => schema.safeParse(argument));
      if (ms > worst.get(chars).ms) worst.set(chars, { ms, pattern });
    }
  }
  const ms = (n) => Math.round(n * 100) / 100;
  const [short, long] = [worst.get(30), worst.get(100_001)];
  const nearMiss = `${"a".repeat(BACKTRACKING_CHARS - 1)}!`;
  const backtracking = timed(() => /^(a+)+$/.test(nearMiss));
  return [
    {
      metric: `worst agent pattern-rule check, 30-char near-miss (${EVIL.length} catastrophic patterns)`,
      value: ms(short.ms),
      unit: "ms",
      compare: `on ${short.pattern}; 100,001 chars: ${ms(long.ms)} ms on ${long.pattern}; backtracking RegExp (before), ${BACKTRACKING_CHARS} chars on ^(a+)+$: ${Math.round(backtracking)} ms (30 chars: 17.2 s at ae4dbc2)`,
      target: "30 chars ≤ 10 ms, 100,001 ≤ 200 ms",
      ok: short.ms <= 10 && long.ms <= 200,
    },
  ];
}
