import { MemoryServerStore } from "../../src/server/store/memory.js";
import { describeServerStore } from "./store-conformance.js";

describeServerStore("MemoryServerStore", { open: () => new MemoryServerStore(), shared: false });
