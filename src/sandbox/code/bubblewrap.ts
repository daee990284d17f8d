/**
 * The bubblewrap (bwrap) command line that runs one Python script isolated from the server:
 *
 * - new PID, network, IPC, UTS and (where it can) cgroup namespaces: the script sees only its own
 *   processes, has no network but its own loopback, and dies with all its children when the run
 *   ends (`--die-with-parent`, the PID namespace's init);
 * - a root of its own holding only the system's programs and libraries, read-only (`/usr` and the
 *   `/bin`, `/lib…` links or folders beside it, a few files of `/etc`, the interpreter's own
 *   folders), a fresh `/proc` and `/dev`, and a private `/tmp` of bounded size: not the server's
 *   files, its data folder, home folders, `/var` or `/etc` as a whole;
 * - an empty environment (`--clearenv`) but for PATH, HOME, TMPDIR, LANG and the proxy variables,
 *   so no API key of the server reaches the script;
 * - a seccomp filter (seccomp.ts) and no capabilities.
 *
 * Two ways to start, by who runs the server:
 * - not root: bwrap makes a user namespace (`--unshare-user`, `--disable-userns`) and the script
 *   keeps this user's id; RLIMIT_NPROC then counts the processes of that namespace only;
 * - root: bwrap needs no user namespace, and the script runs as an unprivileged user id of its
 *   own (`setpriv`), with every capability dropped, because the kernel never applies RLIMIT_NPROC
 *   to root, so a fork bomb would not be stopped.
 */
import type { Stats } from "node:fs";

/** The host's top-level system folders beside /usr, as the sandbox recreates them. */
export const SYSTEM_LINKS = ["/bin", "/sbin", "/lib", "/lib32", "/lib64", "/libx32"] as const;

/** Files and folders of /etc a script may need: TLS roots, the time zone, the loader's cache. */
export const ETC_KEPT = ["/etc/ssl", "/etc/ca-certificates", "/etc/pki", "/etc/localtime", "/etc/ld.so.cache", "/etc/alternatives"] as const;

/** What one entry of SYSTEM_LINKS is on the host. */
export type HostEntry = { kind: "link"; target: string } | { kind: "folder" } | { kind: "missing" };

export interface HostLayout {
  readonly entries: Readonly<Record<string, HostEntry>>;
  /** The ETC_KEPT paths that exist. */
  readonly etc: readonly string[];
}

/** Where the egress proxy's socket is inside the sandbox. */
export const PROXY_SOCKET_INSIDE = "/run/canvasflow/egress.sock";

export interface BwrapPlan {
  readonly layout: HostLayout;
  /** Folders to show read-only at the same path (the interpreter's prefixes), beyond /usr. */
  readonly readOnly: readonly string[];
  readonly tmpBytes: number;
  /** Run as root: no user namespace, and `setpriv` switches to `uid`. */
  readonly privileged: { readonly uid: number; readonly setpriv: string } | undefined;
  /** The file descriptors bwrap reads the seccomp filter from and writes its status to. */
  readonly seccompFd: number;
  readonly statusFd: number;
  /** The egress proxy's socket on the host, bound into the sandbox at PROXY_SOCKET_INSIDE. */
  readonly proxySocket?: string;
  readonly env: Readonly<Record<string, string>>;
  readonly command: readonly string[];
}

/** Whether `inner` is `outer` or inside it. */
export function isInside(inner: string, outer: string): boolean {
  return inner === outer || inner.startsWith(outer.endsWith("/") ? outer : `${outer}/`);
}

/** The folders of `wanted` that /usr and each other do not already cover, shortest first. */
export function extraFolders(wanted: readonly string[]): string[] {
  const kept: string[] = [];
  for (const folder of [...new Set(wanted)].sort((a, b) => a.length - b.length)) {
    if (!folder.startsWith("/") || isInside(folder, "/usr")) continue;
    if (kept.some((outer) => isInside(folder, outer))) continue;
    kept.push(folder);
  }
  return kept;
}

/**
 * The folders above each path, shallowest first, each once ("/a/b/c" gives "/a", "/a/b"). bwrap
 * would make them itself, but private (0700): a script running as another user could then not
 * reach what is bound below them.
 */
export function ancestorFolders(paths: readonly string[]): string[] {
  const found = new Set<string>();
  for (const full of paths) {
    const parts = full.split("/").filter((part) => part !== "");
    for (let i = 1; i < parts.length; i++) found.add(`/${parts.slice(0, i).join("/")}`);
  }
  return [...found].sort((a, b) => a.split("/").length - b.split("/").length || a.localeCompare(b));
}

/** bwrap's arguments, then the command (pure: the host's layout is given). */
export function bwrapArguments(plan: BwrapPlan): string[] {
  const args = ["--unshare-pid", "--unshare-net", "--unshare-ipc", "--unshare-uts", "--unshare-cgroup-try"];
  if (!plan.privileged) args.push("--unshare-user", "--disable-userns");
  args.push("--die-with-parent", "--new-session", "--hostname", "sandbox", "--clearenv");
  for (const [name, value] of Object.entries(plan.env)) args.push("--setenv", name, value);
  args.push("--ro-bind", "/usr", "/usr");
  for (const path of SYSTEM_LINKS) {
    const entry = plan.layout.entries[path];
    if (entry?.kind === "link") args.push("--symlink", entry.target, path);
    else if (entry?.kind === "folder") args.push("--ro-bind", path, path);
  }
  const bound = [...plan.layout.etc, ...extraFolders(plan.readOnly)];
  for (const folder of ancestorFolders(bound)) if (folder !== "/usr" && !isInside(folder, "/usr")) args.push("--perms", "0755", "--dir", folder);
  for (const path of bound) args.push("--ro-bind", path, path);
  args.push("--proc", "/proc", "--dev", "/dev");
  // /dev's own tmpfs has no size limit: /dev/shm gets a bounded one, as /tmp does.
  args.push("--size", String(plan.tmpBytes), "--tmpfs", "/dev/shm");
  args.push("--size", String(plan.tmpBytes), "--perms", "1777", "--tmpfs", "/tmp");
  if (plan.proxySocket !== undefined) args.push("--dir", "/run/canvasflow", "--bind", plan.proxySocket, PROXY_SOCKET_INSIDE);
  // Read-only from here on: the script can create nothing outside /tmp and /dev/shm.
  args.push("--remount-ro", "/");
  args.push("--chdir", "/tmp", "--seccomp", String(plan.seccompFd), "--json-status-fd", String(plan.statusFd), "--");
  if (plan.privileged) {
    const id = String(plan.privileged.uid);
    args.push(plan.privileged.setpriv, `--reuid=${id}`, `--regid=${id}`, "--clear-groups", "--inh-caps=-all", "--bounding-set=-all", "--no-new-privs", "--");
  }
  args.push(...plan.command);
  return args;
}

/** One SYSTEM_LINKS entry from what lstat and readlink said (for hostLayout and its tests). */
export function hostEntry(stats: Pick<Stats, "isSymbolicLink" | "isDirectory"> | undefined, target: string | undefined): HostEntry {
  if (!stats) return { kind: "missing" };
  if (stats.isSymbolicLink() && target !== undefined) return { kind: "link", target };
  return stats.isDirectory() ? { kind: "folder" } : { kind: "missing" };
}
