/** Fuzzing (see fuzz-suite.ts): generated valid arguments of the second half of the tools. */
import { FUZZED_TOOLS, fuzzSuite } from "./fuzz-suite.js";

fuzzSuite(
  "valid",
  FUZZED_TOOLS.filter((_, i) => i % 2 === 1),
);
