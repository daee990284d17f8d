import { InProcessCancelSignals } from "../../src/backends/process/cancel.js";
import { describeCancelSignals } from "./cancel-conformance.js";

describeCancelSignals("InProcessCancelSignals", { open: () => new InProcessCancelSignals(), shared: false });
