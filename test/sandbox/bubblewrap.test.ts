/**
 * The sandbox's bwrap command line (pure), its options, and what happens where no sandbox can
 * start: a clear error, never an unsandboxed run.
 */
import { describe, expect, it } from "vitest";
import { isUnavailable } from "../../src/components/unavailable.js";
import { ancestorFolders, bwrapArguments, extraFolders, hostEntry, isInside, type BwrapPlan } from "../../src/sandbox/code/bubblewrap.js";
import { codeSandboxSettings, DEFAULT_CODE_SETTINGS } from "../../src/sandbox/code/options.js";
import { runPython } from "../../src/sandbox/code/python.js";

const layout = {
  entries: { "/bin": { kind: "link", target: "usr/bin" }, "/lib": { kind: "folder" }, "/lib64": { kind: "missing" } },
  etc: ["/etc/ssl", "/etc/localtime"],
} as const;

function plan(overrides: Partial<BwrapPlan> = {}): BwrapPlan {
  return {
    layout,
    readOnly: ["/opt/python/3.12", "/opt/python/3.12/lib", "/usr/lib/python3"],
    tmpBytes: 1 << 20,
    privileged: undefined,
    seccompFd: 4,
    statusFd: 5,
    env: { PATH: "/usr/bin", HOME: "/tmp" },
    command: ["/opt/python/3.12/bin/python3", "-I", "-c", "pass"],
    ...overrides,
  };
}

/** The value after each occurrence of a flag. */
function after(args: string[], flag: string, count = 1): string[][] {
  const found: string[][] = [];
  args.forEach((arg, i) => {
    if (arg === flag) found.push(args.slice(i + 1, i + 1 + count));
  });
  return found;
}

describe("the bwrap command line", () => {
  it("unshares every namespace, with a user namespace (and none inside) when not root", () => {
    const args = bwrapArguments(plan());
    for (const flag of ["--unshare-pid", "--unshare-net", "--unshare-ipc", "--unshare-uts", "--unshare-user", "--disable-userns", "--die-with-parent", "--new-session", "--clearenv"]) expect(args).toContain(flag);
    expect(after(args, "--setenv", 2)).toEqual([["PATH", "/usr/bin"], ["HOME", "/tmp"]]);
    expect(args.slice(args.indexOf("--") + 1)).toEqual(["/opt/python/3.12/bin/python3", "-I", "-c", "pass"]);
  });

  it("as root, needs no user namespace and drops to an unprivileged user with no capabilities", () => {
    const args = bwrapArguments(plan({ privileged: { uid: 1_900_000_123, setpriv: "/usr/bin/setpriv" } }));
    expect(args).not.toContain("--unshare-user");
    const command = args.slice(args.indexOf("--") + 1);
    expect(command.slice(0, 8)).toEqual(["/usr/bin/setpriv", "--reuid=1900000123", "--regid=1900000123", "--clear-groups", "--inh-caps=-all", "--bounding-set=-all", "--no-new-privs", "--"]);
    expect(command.slice(8)).toEqual(["/opt/python/3.12/bin/python3", "-I", "-c", "pass"]);
  });

  it("shows only system folders, read-only, a fresh /proc and /dev, and bounded private tmpfs", () => {
    const args = bwrapArguments(plan());
    expect(after(args, "--ro-bind", 2)).toEqual([
      ["/usr", "/usr"],
      ["/lib", "/lib"],
      ["/etc/ssl", "/etc/ssl"],
      ["/etc/localtime", "/etc/localtime"],
      ["/opt/python/3.12", "/opt/python/3.12"],
    ]);
    expect(after(args, "--symlink", 2)).toEqual([["usr/bin", "/bin"]]);
    expect(after(args, "--tmpfs")).toEqual([["/dev/shm"], ["/tmp"]]);
    expect(after(args, "--size")).toEqual([[String(1 << 20)], [String(1 << 20)]]);
    // Folders above what is bound are readable by the script's user, not bwrap's private 0700.
    expect(after(args, "--dir")).toEqual([["/etc"], ["/opt"], ["/opt/python"]]);
    expect(args.indexOf("--remount-ro")).toBeGreaterThan(args.lastIndexOf("--tmpfs"));
    expect(after(args, "--seccomp")).toEqual([["4"]]);
    expect(after(args, "--json-status-fd")).toEqual([["5"]]);
    expect(args).not.toContain("--bind");
  });

  it("binds the egress proxy's socket only when the script may use the network", () => {
    expect(after(bwrapArguments(plan({ proxySocket: "/run/x/egress.sock" })), "--bind", 2)).toEqual([["/run/x/egress.sock", "/run/canvasflow/egress.sock"]]);
  });

  it("binds an interpreter's folders once, outside /usr only", () => {
    expect(extraFolders(["/opt/py/lib", "/opt/py", "/usr/lib/python3", "/usr", "relative", "/opt/pyx"])).toEqual(["/opt/py", "/opt/pyx"]);
    expect(isInside("/opt/pyx", "/opt/py")).toBe(false);
    expect(isInside("/opt/py/x", "/opt/py/")).toBe(true);
    expect(ancestorFolders(["/a/b/c", "/a/d", "/e"])).toEqual(["/a", "/a/b"]);
    expect(hostEntry(undefined, undefined)).toEqual({ kind: "missing" });
    expect(hostEntry({ isSymbolicLink: () => true, isDirectory: () => false }, "usr/lib")).toEqual({ kind: "link", target: "usr/lib" });
  });
});

describe("the codeExec options", () => {
  it("fills in the defaults and names every bad value", () => {
    expect(codeSandboxSettings(undefined)).toEqual(DEFAULT_CODE_SETTINGS);
    expect(codeSandboxSettings({ timeoutMs: 200, networkAllow: [" api.example.com "] })).toMatchObject({ timeoutMs: 200, memoryMb: 256, networkAllow: ["api.example.com"], trustCode: false });
    expect(() => codeSandboxSettings({ memoryMb: "bad" })).toThrow('codeExec.memoryMb must be a number of at least 8, not "bad"');
    expect(() => codeSandboxSettings({ processes: 0 })).toThrow("codeExec.processes must be a number of at least 1, not 0");
    expect(() => codeSandboxSettings({ trustCode: "yes" })).toThrow('codeExec.trustCode must be true or false, not "yes"');
    expect(() => codeSandboxSettings({ networkAllow: "api.example.com" })).toThrow("codeExec.networkAllow must be a list of hosts");
    expect(() => codeSandboxSettings({ timeout: 5 })).toThrow('codeExec has no option "timeout"');
    expect(() => codeSandboxSettings([])).toThrow("codeExec must be an object");
  });
});

describe("where no sandbox can start", () => {
  const script = "def main():\n    return 'ran'";

  it("fails with an error that says so and how to fix it, and never runs the script unsandboxed", async () => {
    const missing = runPython(script, {}, codeSandboxSettings({ bwrap: "/nonexistent/bwrap" }));
    await expect(missing).rejects.toThrow("the code sandbox cannot start on this machine: /nonexistent/bwrap was not found. CodeExec runs Python only inside the bubblewrap sandbox: install bubblewrap");
    await missing.catch((error: unknown) => expect(isUnavailable(error)).toBe(true));
    // A bwrap that cannot set a sandbox up (here: one that fails at once, as without user namespaces).
    await expect(runPython(script, {}, codeSandboxSettings({ bwrap: "/bin/false" }))).rejects.toThrow("the code sandbox could not start on this machine. CodeExec runs Python only inside the bubblewrap sandbox");
  });

  it("runs it unsandboxed only when the settings trust the code", async () => {
    expect(await runPython(script, {}, codeSandboxSettings({ bwrap: "/nonexistent/bwrap", trustCode: true }))).toBe("ran");
  });
});
