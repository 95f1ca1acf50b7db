/** Fuzzing (see fuzz-suite.ts): every tool's generated invalid arguments, and non-object ones. */
import { FUZZED_TOOLS, fuzzSuite } from "./fuzz-suite.js";

fuzzSuite("invalid", FUZZED_TOOLS);
