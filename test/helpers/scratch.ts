/** A temporary folder of a test file, and writers of the files the test needs in it. */
import { copyFileSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

export interface ScratchDir {
  dir: string;
  /** Writes `value` to dir/name (a string as is, anything else as JSON); returns the path. */
  write(name: string, value: unknown): string;
  /** Copies `source` to dir/name; returns the path. */
  copy(source: string, name: string): string;
}

export function scratchDir(prefix: string): ScratchDir {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  return {
    dir,
    write(name, value) {
      const file = join(dir, name);
      writeFileSync(file, typeof value === "string" ? value : JSON.stringify(value));
      return file;
    },
    copy(source, name) {
      const file = join(dir, name);
      copyFileSync(source, file);
      return file;
    },
  };
}
