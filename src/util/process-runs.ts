/**
 * Whether a lease holder's process on this host still runs. A process that was killed but not yet
 * collected by its parent (a zombie: on Linux, state Z in /proc/<pid>/stat) still answers
 * `kill(pid, 0)`, though it will never run again; a server killed with SIGKILL under a parent that
 * does not reap it (a container's init that does not, a shell that exec'd) stays one, and its
 * leases looked held until they ran out (15 s).
 */
import { readFileSync } from "node:fs";

/** False when no process has this pid, or it has exited and only waits to be reaped. */
export function processRuns(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch (error) {
    // EPERM: the process exists, run by another user.
    return (error as NodeJS.ErrnoException).code !== "ESRCH";
  }
  return !exitedUnreaped(pid);
}

function exitedUnreaped(pid: number): boolean {
  let stat: string;
  try {
    stat = readFileSync(`/proc/${pid}/stat`, "utf8");
  } catch {
    // No procfs (macOS), or it went just now: kill(pid, 0) decides.
    return false;
  }
  // "pid (comm) S …": comm may hold spaces and parentheses; the state follows the last ")".
  const close = stat.lastIndexOf(")");
  const state = stat.slice(close + 2, close + 3);
  return state === "Z" || state === "X";
}
