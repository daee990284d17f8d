/**
 * Migrations: bring old DSLs (RAGFlow v0.19 canvases, graph-only exports, renamed components) to
 * the current format with the ordered steps of migrations-dsl/.
 */
export { migrateDsl, needsMigration, unsupportedParts, applySteps } from "./runner.js";
export { formatMigrationReport, inMemoryWarning, migrationReport, type MigrationReport, type MigrationStatus } from "./report.js";
export { MigrationError, type LooseDsl, type MigrationNote, type MigrationResult, type MigrationStep, type StepResult, type UnsupportedPart } from "./types.js";
export { DSL_MIGRATIONS } from "../../migrations-dsl/index.js";
