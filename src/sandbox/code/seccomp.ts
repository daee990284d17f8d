/**
 * A seccomp filter for sandboxed code, as classic BPF that bubblewrap loads with `--seccomp FD`.
 *
 * It is a deny list, as Docker's and Flatpak's are: the namespaces already keep a script away from
 * the server's files, processes and network, and the filter takes away the system calls that are
 * only kernel attack surface for a script (new namespaces, mounts, kernel keyrings, BPF, io_uring,
 * ptrace, module loading…). A denied call fails with EPERM, so the script gets an ordinary
 * OSError instead of being killed; clone3 fails with ENOSYS, so the C library falls back to
 * clone, whose flags the filter can read (clone3 passes them in memory it cannot). A call from
 * another architecture's ABI (x32 on x86-64, or a foreign audit architecture) kills the process.
 */
import { arch } from "node:process";

/** A kernel architecture the filter knows the system call numbers of. */
export type SeccompArch = "x64" | "arm64";

interface ArchTable {
  /** AUDIT_ARCH_* of the architecture (linux/audit.h). */
  readonly audit: number;
  /** Calls numbered from here on belong to another ABI (x32); none when undefined. */
  readonly foreignFrom?: number;
  readonly clone: number;
  readonly clone3: number;
  /** The denied calls by name (their numbers differ between architectures). */
  readonly denied: Readonly<Record<string, number>>;
}

// Numbers from the kernel's arch/x86/entry/syscalls/syscall_64.tbl and, for arm64, the generic
// include/uapi/asm-generic/unistd.h. Calls that exist on one architecture only are listed there only.
const TABLES: Readonly<Record<SeccompArch, ArchTable>> = {
  x64: {
    audit: 0xc000003e,
    foreignFrom: 0x40000000,
    clone: 56,
    clone3: 435,
    denied: {
      ptrace: 101, syslog: 103, uselib: 134, personality: 135, ustat: 136, sysfs: 139, vhangup: 153,
      modify_ldt: 154, pivot_root: 155, _sysctl: 156, chroot: 161, acct: 163, settimeofday: 164,
      mount: 165, umount2: 166, swapon: 167, swapoff: 168, reboot: 169, sethostname: 170,
      setdomainname: 171, iopl: 172, ioperm: 173, create_module: 174, init_module: 175,
      delete_module: 176, get_kernel_syms: 177, query_module: 178, quotactl: 179, nfsservctl: 180,
      lookup_dcookie: 212, clock_settime: 227, kexec_load: 246, add_key: 248, request_key: 249,
      keyctl: 250, unshare: 272, move_pages: 279, perf_event_open: 298, fanotify_init: 300,
      name_to_handle_at: 303, open_by_handle_at: 304, clock_adjtime: 305, setns: 308,
      process_vm_readv: 310, process_vm_writev: 311, kcmp: 312, finit_module: 313,
      kexec_file_load: 320, bpf: 321, userfaultfd: 323, io_uring_setup: 425, io_uring_enter: 426,
      io_uring_register: 427, open_tree: 428, move_mount: 429, fsopen: 430, fsconfig: 431,
      fsmount: 432, fspick: 433, pidfd_getfd: 438, mount_setattr: 442, quotactl_fd: 443,
    },
  },
  arm64: {
    audit: 0xc00000b7,
    clone: 220,
    clone3: 435,
    denied: {
      lookup_dcookie: 18, umount2: 39, mount: 40, pivot_root: 41, quotactl: 60, acct: 89,
      personality: 92, unshare: 97, kexec_load: 104, init_module: 105, delete_module: 106,
      syslog: 116, ptrace: 117, reboot: 142, sethostname: 161, setdomainname: 162,
      settimeofday: 170, clock_settime: 112, add_key: 217, request_key: 218, keyctl: 219,
      swapon: 224, swapoff: 225, move_pages: 239, perf_event_open: 241, fanotify_init: 262,
      name_to_handle_at: 264, open_by_handle_at: 265, clock_adjtime: 266, setns: 268,
      process_vm_readv: 270, process_vm_writev: 271, kcmp: 272, finit_module: 273, bpf: 280,
      userfaultfd: 282, kexec_file_load: 294, io_uring_setup: 425, io_uring_enter: 426,
      io_uring_register: 427, open_tree: 428, move_mount: 429, fsopen: 430, fsconfig: 431,
      fsmount: 432, fspick: 433, pidfd_getfd: 438, mount_setattr: 442, quotactl_fd: 443,
      vhangup: 58,
    },
  },
};

/** clone flags that make new namespaces (CLONE_NEWNS, NEWCGROUP, NEWUTS, NEWIPC, NEWUSER, NEWPID, NEWNET, NEWTIME). */
export const CLONE_NAMESPACE_FLAGS = 0x00020000 | 0x02000000 | 0x04000000 | 0x08000000 | 0x10000000 | 0x20000000 | 0x40000000 | 0x00000080;

const EPERM = 1;
const ENOSYS = 38;

// Classic BPF opcodes (linux/bpf_common.h) and seccomp return values (linux/seccomp.h).
const LD_W_ABS = 0x20;
const JEQ_K = 0x15;
const JGE_K = 0x35;
const JSET_K = 0x45;
const RET_K = 0x06;
const RET_KILL_PROCESS = 0x80000000;
const RET_ALLOW = 0x7fff0000;
const retErrno = (errno: number) => (0x00050000 | errno) >>> 0;

// Offsets in struct seccomp_data: nr, arch, instruction_pointer, args[6] (little-endian low words).
const NR = 0;
const ARCH = 4;
const ARG0_LOW = 16;

/** One classic BPF instruction: { code, jt, jf, k }. */
interface BpfInstruction {
  readonly code: number;
  readonly jt: number;
  readonly jf: number;
  readonly k: number;
}

/** The architecture of this process, when the filter knows it. */
export function hostSeccompArch(): SeccompArch | undefined {
  return arch === "x64" || arch === "arm64" ? arch : undefined;
}

/** The names of the calls the filter denies on an architecture (besides clone's namespace flags and clone3). */
export function deniedSyscalls(target: SeccompArch): string[] {
  return Object.keys(TABLES[target].denied).sort();
}

/** The filter's program. */
export function seccompProgram(target: SeccompArch): BpfInstruction[] {
  const table = TABLES[target];
  const numbers = [...new Set(Object.values(table.denied))].sort((a, b) => a - b);
  // Layout: [arch check][foreign ABI check][one jeq per denied call][clone][clone3][allow][deny][kill][clone flags…]
  const program: BpfInstruction[] = [];
  const emit = (code: number, k: number, jt = 0, jf = 0) => program.push({ code, jt, jf, k: k >>> 0 });
  // The return instructions sit after the jumps; each jump's offset is counted from the next instruction.
  const checks = numbers.length + 2;
  const foreign = table.foreignFrom !== undefined ? 1 : 0;
  emit(LD_W_ABS, ARCH);
  // arch matches: go on; otherwise jump to kill (past the nr load, foreign check, checks, allow, deny).
  emit(JEQ_K, table.audit, 0, 1 + foreign + checks + 2);
  emit(LD_W_ABS, NR);
  if (table.foreignFrom !== undefined) emit(JGE_K, table.foreignFrom, checks + 2, 0);
  numbers.forEach((nr, i) => {
    const toDeny = checks - i; // past the remaining checks and the allow
    emit(JEQ_K, nr, toDeny, 0);
  });
  // clone: look at its flags (past allow, deny, kill and the ENOSYS return to the flag check).
  emit(JEQ_K, table.clone, 5, 0);
  emit(JEQ_K, table.clone3, 3, 0);
  emit(RET_K, RET_ALLOW);
  emit(RET_K, retErrno(EPERM));
  emit(RET_K, RET_KILL_PROCESS);
  emit(RET_K, retErrno(ENOSYS));
  emit(LD_W_ABS, ARG0_LOW);
  emit(JSET_K, CLONE_NAMESPACE_FLAGS, 0, 1);
  emit(RET_K, retErrno(EPERM));
  emit(RET_K, RET_ALLOW);
  return program;
}

/** The program as the kernel reads it: struct sock_filter[], in this machine's byte order (little-endian on both architectures). */
export function seccompFilterBytes(target: SeccompArch): Buffer {
  const program = seccompProgram(target);
  const bytes = Buffer.alloc(program.length * 8);
  program.forEach((ins, i) => {
    bytes.writeUInt16LE(ins.code, i * 8);
    bytes.writeUInt8(ins.jt, i * 8 + 2);
    bytes.writeUInt8(ins.jf, i * 8 + 3);
    bytes.writeUInt32LE(ins.k, i * 8 + 4);
  });
  return bytes;
}

/**
 * Runs the program on one call, as the kernel would (for tests): the value it returns.
 * `args0` is the low word of the first argument.
 */
export function evaluateSeccomp(program: readonly BpfInstruction[], call: { nr: number; arch: number; arg0?: number }): number {
  let acc = 0;
  for (let pc = 0; pc < program.length; pc++) {
    const ins = program[pc];
    switch (ins.code) {
      case LD_W_ABS:
        acc = ins.k === NR ? call.nr : ins.k === ARCH ? call.arch : ins.k === ARG0_LOW ? (call.arg0 ?? 0) >>> 0 : 0;
        break;
      case JEQ_K:
        pc += acc >>> 0 === ins.k ? ins.jt : ins.jf;
        break;
      case JGE_K:
        pc += acc >>> 0 >= ins.k ? ins.jt : ins.jf;
        break;
      case JSET_K:
        pc += (acc & ins.k) !== 0 ? ins.jt : ins.jf;
        break;
      case RET_K:
        return ins.k;
      default:
        throw new Error(`unknown BPF opcode ${ins.code}`);
    }
  }
  throw new Error("the program ran off its end");
}

export const SECCOMP_RESULT = { allow: RET_ALLOW, eperm: retErrno(EPERM), enosys: retErrno(ENOSYS), kill: RET_KILL_PROCESS } as const;

/** The audit architecture number of a table (for tests). */
export function auditArch(target: SeccompArch): number {
  return TABLES[target].audit;
}

/** A denied call's number (for tests). */
export function syscallNumber(target: SeccompArch, name: string): number | undefined {
  const table = TABLES[target];
  if (name === "clone") return table.clone;
  if (name === "clone3") return table.clone3;
  return table.denied[name];
}
