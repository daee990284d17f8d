import { MemoryCancelSignals } from "../../src/index.js";
import { describeCancelSignals } from "./cancel-conformance.js";

describeCancelSignals("MemoryCancelSignals", { open: () => new MemoryCancelSignals(), shared: false });
