/**
 * What the sandbox needs to know of this machine, asked once per process: how its system folders
 * are laid out, where bwrap and setpriv are, and which folders a Python interpreter lives in.
 */
import { execFile } from "node:child_process";
import { existsSync, lstatSync, readlinkSync, realpathSync } from "node:fs";
import path from "node:path";
import { ETC_KEPT, hostEntry, SYSTEM_LINKS, type HostEntry, type HostLayout } from "./bubblewrap.js";

let layout: HostLayout | undefined;

export function hostLayout(): HostLayout {
  if (layout) return layout;
  const entries: Record<string, HostEntry> = {};
  for (const folder of SYSTEM_LINKS) {
    let stats;
    let target: string | undefined;
    try {
      stats = lstatSync(folder);
      if (stats.isSymbolicLink()) target = readlinkSync(folder);
    } catch {
      stats = undefined;
    }
    entries[folder] = hostEntry(stats, target);
  }
  layout = { entries, etc: ETC_KEPT.filter((file) => existsSync(file)) };
  return layout;
}

/** A program's path found on the PATH (or as given when absolute), or undefined. */
export function findProgram(name: string, searchPath = process.env.PATH ?? ""): string | undefined {
  if (name.includes("/")) return existsSync(name) ? name : undefined;
  for (const folder of [...searchPath.split(path.delimiter), "/usr/bin", "/bin", "/usr/sbin", "/sbin"]) {
    if (folder === "") continue;
    const candidate = path.join(folder, name);
    if (existsSync(candidate)) return candidate;
  }
  return undefined;
}

export interface PythonInstallation {
  /** The interpreter's own file (not a launcher such as a pyenv shim). */
  readonly executable: string;
  /** The folders its standard library and site-packages are in (real paths). */
  readonly folders: readonly string[];
}

const pythons = new Map<string, Promise<PythonInstallation>>();

const ASK = "import json, sys; print(json.dumps([sys.executable, sys.prefix, sys.base_prefix, sys.exec_prefix, sys.base_exec_prefix, [p for p in sys.path if p]]))";

function realFolder(folder: string): string | undefined {
  try {
    return realpathSync(folder);
  } catch {
    return undefined;
  }
}

/** The folders that hold an interpreter's file and libraries (the real paths, for bind mounts). */
function installationFolders(executable: string, prefixes: readonly string[], searchPath: readonly string[]): string[] {
  const folders = new Set<string>();
  for (const folder of [path.dirname(executable), ...prefixes, ...searchPath]) {
    const real = realFolder(folder);
    // A zip on sys.path (python311.zip) that does not exist is left out; an existing one is a file: its folder is kept.
    if (real !== undefined) folders.add(existsSync(real) && lstatSync(real).isFile() ? path.dirname(real) : real);
  }
  return [...folders];
}

/**
 * Where the interpreter named `python` (a name on the PATH or a path) lives. Asked once per name:
 * a launcher such as a pyenv shim can take longer to start than a script takes to run.
 * Rejects with an Error whose `code` is "ENOENT" when there is no such interpreter.
 */
export function pythonInstallation(python: string, env: NodeJS.ProcessEnv): Promise<PythonInstallation> {
  let found = pythons.get(python);
  if (!found) {
    found = new Promise<PythonInstallation>((resolve, reject) => {
      execFile(python, ["-I", "-c", ASK], { env, timeout: 30_000 }, (error, stdout) => {
        if (error) return reject(error);
        try {
          const [executable, prefix, basePrefix, execPrefix, baseExecPrefix, searchPath] = JSON.parse(stdout) as [string, string, string, string, string, string[]];
          const real = realpathSync(executable);
          resolve({ executable: real, folders: installationFolders(real, [prefix, basePrefix, execPrefix, baseExecPrefix], searchPath) });
        } catch (failure) {
          reject(new Error(`${python} did not say where it is installed: ${(failure as Error).message}`));
        }
      });
    });
    pythons.set(python, found);
    found.catch(() => pythons.delete(python));
  }
  return found;
}
