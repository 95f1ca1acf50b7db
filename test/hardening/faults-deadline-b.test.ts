/** The fault matrix (see fault-matrix.ts): latency past the call's deadline, the second half of the rows. */
import { faultMatrix } from "./fault-matrix.js";

faultMatrix("faults-deadline-b");
