/** The fault matrix (see fault-matrix.ts): every tool under connection resets, malformed bodies, failed tasks and crawls. */
import { faultMatrix } from "./fault-matrix.js";

faultMatrix("faults-work");
