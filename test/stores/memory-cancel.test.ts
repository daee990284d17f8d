import { MemoryCancelSignals } from "../../src/backends/shared/cancel.js";
import { describeCancelSignals } from "./cancel-conformance.js";

describeCancelSignals("MemoryCancelSignals", { open: () => new MemoryCancelSignals(), shared: false });
