import { InProcessCancelSignals } from "../../src/backends/process/cancel.js";
import { ManualClock } from "../helpers/manual-clock.js";
import { describeCancelSignals } from "./cancel-conformance.js";

const clock = new ManualClock();
describeCancelSignals("InProcessCancelSignals", { open: () => new InProcessCancelSignals(clock.now), shared: false, clock });
