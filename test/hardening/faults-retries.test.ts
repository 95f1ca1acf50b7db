/** The fault matrix (see fault-matrix.ts): every tool under 429s, 5xx on a read, on the submission and on every request. */
import { faultMatrix } from "./fault-matrix.js";

faultMatrix("faults-retries");
