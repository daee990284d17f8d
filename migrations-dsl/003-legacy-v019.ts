/**
 * RAGFlow ≤ v0.19 canvases (Answer, Generate, implicit inputs, a path of lists) → the current
 * format. The conversion lives in src/migrate/legacy/ (one module per component family); the
 * mapping table is in docs/migration.md ("From RAGFlow v0.19").
 */
import { convertLegacyDsl, isLegacyDsl } from "../src/migrate/legacy/convert.js";
import type { LooseDsl, MigrationStep } from "../src/migrate/types.js";

const ID = "003-legacy-v019";

export const legacyV019: MigrationStep = {
  id: ID,
  description: "Convert a RAGFlow v0.19 canvas (Answer, Generate, implicit inputs) to the current format",
  detect: isLegacyDsl,
  migrate: (dsl: LooseDsl) => convertLegacyDsl(dsl, ID),
};
