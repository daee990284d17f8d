/**
 * The sandbox's seccomp filter: the BPF program run call by call as the kernel would (every
 * architecture it knows), then the real kernel's answer to a script that makes the denied calls.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { codeSandboxSettings } from "../../src/sandbox/code/options.js";
import { runPython } from "../../src/sandbox/code/python.js";
import { auditArch, CLONE_NAMESPACE_FLAGS, deniedSyscalls, evaluateSeccomp, hostSeccompArch, SECCOMP_RESULT, seccompFilterBytes, seccompProgram, syscallNumber, type SeccompArch } from "../../src/sandbox/code/seccomp.js";

const ARCHES: SeccompArch[] = ["x64", "arm64"];

describe.each(ARCHES)("the seccomp program on %s", (target) => {
  const program = seccompProgram(target);
  const arch = auditArch(target);
  const denied = new Set(deniedSyscalls(target).map((name) => syscallNumber(target, name)!));
  const call = (nr: number, arg0 = 0) => evaluateSeccomp(program, { nr, arch, arg0 });

  it("denies each listed call with EPERM", () => {
    for (const name of ["ptrace", "mount", "unshare", "setns", "keyctl", "bpf", "io_uring_setup", "perf_event_open", "userfaultfd", "init_module", "kexec_load", "open_by_handle_at"]) {
      expect(call(syscallNumber(target, name)!), name).toBe(SECCOMP_RESULT.eperm);
    }
  });

  it("allows every other call of this architecture", () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 1023 }), (nr) => {
        fc.pre(!denied.has(nr) && nr !== syscallNumber(target, "clone") && nr !== syscallNumber(target, "clone3"));
        expect(call(nr)).toBe(SECCOMP_RESULT.allow);
      }),
    );
  });

  it("allows clone for processes and threads, but not for new namespaces; clone3 answers ENOSYS", () => {
    const clone = syscallNumber(target, "clone")!;
    // What fork and pthread_create pass.
    expect(call(clone, 0x01200011)).toBe(SECCOMP_RESULT.allow);
    expect(call(clone, 0x003d0f00)).toBe(SECCOMP_RESULT.allow);
    for (const flag of [0x10000000, 0x20000000, 0x40000000, 0x00020000, 0x08000000, 0x04000000, 0x02000000, 0x00000080]) {
      expect(CLONE_NAMESPACE_FLAGS & flag).toBe(flag);
      expect(call(clone, 0x01200011 | flag)).toBe(SECCOMP_RESULT.eperm);
    }
    expect(call(syscallNumber(target, "clone3")!)).toBe(SECCOMP_RESULT.enosys);
  });

  it("kills a call made through another architecture's ABI", () => {
    const other = ARCHES.find((a) => a !== target)!;
    expect(evaluateSeccomp(program, { nr: 0, arch: auditArch(other) })).toBe(SECCOMP_RESULT.kill);
    if (target === "x64") expect(call(0x40000000 + 1)).toBe(SECCOMP_RESULT.kill);
  });

  it("is what bwrap reads: 8 bytes an instruction", () => {
    const bytes = seccompFilterBytes(target);
    expect(bytes.length).toBe(program.length * 8);
    expect(bytes.readUInt16LE(0)).toBe(program[0].code);
    expect(bytes.readUInt32LE(4)).toBe(program[0].k);
    // Classic BPF jumps are one byte: the program must stay within reach of its returns.
    expect(Math.max(...program.map((ins) => Math.max(ins.jt, ins.jf)))).toBeLessThan(256);
  });
});

describe.runIf(hostSeccompArch() !== undefined)("the filter in the real kernel", () => {
  it("a sandboxed script's denied calls fail with EPERM, and it goes on running", async () => {
    const script = [
      "import ctypes, os",
      "libc = ctypes.CDLL(None, use_errno=True)",
      "def attempt(call, *args):",
      "    result = call(*args)",
      "    return [result, ctypes.get_errno()]",
      "def main(numbers):",
      "    return {",
      "        'unshare_user': attempt(libc.unshare, 0x10000000),",
      "        'ptrace': attempt(libc.syscall, numbers['ptrace'], 16, 1, 0, 0),",
      "        'keyctl': attempt(libc.syscall, numbers['keyctl'], 0, 0, 0, 0),",
      "        'bpf': attempt(libc.syscall, numbers['bpf'], 0, 0, 0),",
      "        'io_uring_setup': attempt(libc.syscall, numbers['io_uring_setup'], 1, 0),",
      "        'still_running': os.getpid() > 0,",
      "    }",
    ].join("\n");
    const target = hostSeccompArch()!;
    const numbers = Object.fromEntries(["ptrace", "keyctl", "bpf", "io_uring_setup"].map((name) => [name, syscallNumber(target, name)]));
    const result = await runPython(script, { numbers }, codeSandboxSettings({ timeoutMs: 20_000 }));
    expect(result).toEqual({ unshare_user: [-1, 1], ptrace: [-1, 1], keyctl: [-1, 1], bpf: [-1, 1], io_uring_setup: [-1, 1], still_running: true });
  });
});
