export * from "./path.js";
export * from "./pool.js";
export * from "./variables.js";
