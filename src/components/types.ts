/**
 * The component contract, kept under its old address: it lives in contracts/ (a leaf every
 * layer imports), see contracts/component.ts.
 */
export type * from "../contracts/component.js";
export type { InputField, JsonSchema, Outputs, Params, ReferenceChunk, ReferenceDocument, RuntimeServices, UsageReport } from "../contracts/values.js";
