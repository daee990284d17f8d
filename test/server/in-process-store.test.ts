import { InProcessServerStore } from "../../src/backends/process/server-store.js";
import { describeServerStore } from "./store-conformance.js";

describeServerStore("InProcessServerStore", { open: () => new InProcessServerStore(), shared: false });
