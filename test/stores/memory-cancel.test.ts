import { MemoryCancelSignals } from "../../src/stores/cancel-signals.js";
import { describeCancelSignals } from "./cancel-conformance.js";

describeCancelSignals("MemoryCancelSignals", { open: () => new MemoryCancelSignals(), shared: false });
