export * from "./grammar.js";
export * from "./template.js";
