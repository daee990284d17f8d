/**
 * File names a client gives (an upload's file name, a completion's `files[i].name`) are shown,
 * stored and may end up in paths and headers: one with NUL or another control character (a line
 * break, an escape sequence for a terminal, U+0000 that cuts a C string short) is refused, naming
 * the field.
 */

/** Why a file name cannot be taken, or undefined: "has a control character (U+0000) at character 3…". */
export function fileNameProblem(name: string): string | undefined {
  const match = /\p{Cc}/u.exec(name);
  if (!match) return undefined;
  const code = match[0].codePointAt(0)!.toString(16).toUpperCase().padStart(4, "0");
  const position = [...name.slice(0, match.index)].length + 1;
  return `has a control character (U+${code}) at character ${position}: file names may not contain NUL or other control characters`;
}

/** The first file name of a completion body's `files` that cannot be taken, as "Field `files[i].name` has…". */
export function fileListProblem(files: unknown, field = "files"): string | undefined {
  if (!Array.isArray(files)) return undefined;
  for (const [i, file] of files.entries()) {
    if (file === null || typeof file !== "object") continue;
    for (const key of ["name", "filename"]) {
      const name = (file as Record<string, unknown>)[key];
      const problem = typeof name === "string" ? fileNameProblem(name) : undefined;
      if (problem) return `Field \`${field}[${i}].${key}\` ${problem}`;
    }
  }
  return undefined;
}
