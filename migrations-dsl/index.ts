/**
 * Every migration step, in the order of its numeric prefix. A test checks that this list names
 * each `NNN-*.ts` file of this folder exactly once, in order. Static imports keep the compiled
 * CLI self-contained.
 */
import type { MigrationStep } from "../src/migrate/types.js";
import { chunkerRenames } from "./001-chunker-renames.js";
import { graphOnlyComponents } from "./002-graph-only-components.js";
import { legacyV019 } from "./003-legacy-v019.js";

export const DSL_MIGRATIONS: readonly MigrationStep[] = [chunkerRenames, graphOnlyComponents, legacyV019];
