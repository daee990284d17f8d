/** Why a file the user named could not be written, in words (for `-o`, `--trace`). */
export function describeWriteError(error: NodeJS.ErrnoException): string {
  if (error.code === "ENOENT") return "its folder does not exist";
  if (error.code === "EISDIR") return "it is a folder";
  if (error.code === "EACCES" || error.code === "EPERM") return "permission denied";
  return error.message;
}
