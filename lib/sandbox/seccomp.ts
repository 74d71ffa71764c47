/**
 * The seccomp filter every sandboxed server runs under, as classic-BPF bytes that bubblewrap
 * installs (`--seccomp FD`) just before it executes the server. Pure: the program is built from
 * the tables below; node/sandbox.ts hands it to bwrap through a pipe.
 *
 * What it refuses (EPERM), on x86_64 and aarch64 alike:
 *   - new namespaces: unshare, setns, and clone with any CLONE_NEW* flag. clone3 passes its flags
 *     in memory a filter cannot read, so it answers ENOSYS, which makes glibc fall back to clone.
 *   - mount and the new mount API (mount, umount2, pivot_root, open_tree, move_mount, fsopen,
 *     fsconfig, fsmount, fspick, mount_setattr);
 *   - bpf, the kernel keyring (keyctl, add_key, request_key), io_uring (whose requests no filter
 *     or trace sees), ptrace and process_vm_readv/writev, perf_event_open, userfaultfd.
 * Any other architecture (the i386 and x32 ABIs an x86_64 process can still call) is refused
 * whole. No well-kept npm package builds seccomp programs without a native addon, and the program
 * is small, so it is written here (see `man 2 seccomp` for the layout).
 */

/** `struct seccomp_data`: the syscall number, the audit architecture, the first argument's low word. */
const OFFSET_NR = 0;
const OFFSET_ARCH = 4;
const OFFSET_ARG0_LOW = 16;

const AUDIT_ARCH_X86_64 = 0xc000003e;
const AUDIT_ARCH_AARCH64 = 0xc00000b7;
/** x32 syscalls on x86_64 carry this bit. */
const X32_SYSCALL_BIT = 0x40000000;

const SECCOMP_RET_ALLOW = 0x7fff0000;
const SECCOMP_RET_ERRNO = 0x00050000;
const EPERM = 1;
const ENOSYS = 38;

/** CLONE_NEWNS, NEWCGROUP, NEWUTS, NEWIPC, NEWUSER, NEWPID, NEWNET and NEWTIME. */
export const CLONE_NEW_FLAGS =
  0x00020000 | 0x02000000 | 0x04000000 | 0x08000000 | 0x10000000 | 0x20000000 | 0x40000000 | 0x80;

/** The refused system calls by name, with their numbers on each architecture. */
export const REFUSED_SYSCALLS: Record<string, { x86_64: number; aarch64: number }> = {
  unshare: { x86_64: 272, aarch64: 97 },
  setns: { x86_64: 308, aarch64: 268 },
  mount: { x86_64: 165, aarch64: 40 },
  umount2: { x86_64: 166, aarch64: 39 },
  pivot_root: { x86_64: 155, aarch64: 41 },
  open_tree: { x86_64: 428, aarch64: 428 },
  move_mount: { x86_64: 429, aarch64: 429 },
  fsopen: { x86_64: 430, aarch64: 430 },
  fsconfig: { x86_64: 431, aarch64: 431 },
  fsmount: { x86_64: 432, aarch64: 432 },
  fspick: { x86_64: 433, aarch64: 433 },
  mount_setattr: { x86_64: 442, aarch64: 442 },
  bpf: { x86_64: 321, aarch64: 280 },
  keyctl: { x86_64: 250, aarch64: 219 },
  add_key: { x86_64: 248, aarch64: 217 },
  request_key: { x86_64: 249, aarch64: 218 },
  io_uring_setup: { x86_64: 425, aarch64: 425 },
  io_uring_enter: { x86_64: 426, aarch64: 426 },
  io_uring_register: { x86_64: 427, aarch64: 427 },
  ptrace: { x86_64: 101, aarch64: 117 },
  process_vm_readv: { x86_64: 310, aarch64: 270 },
  process_vm_writev: { x86_64: 311, aarch64: 271 },
  perf_event_open: { x86_64: 298, aarch64: 241 },
  userfaultfd: { x86_64: 323, aarch64: 282 },
};
const CLONE = { x86_64: 56, aarch64: 220 };
const CLONE3 = { x86_64: 435, aarch64: 435 };

// Classic BPF opcodes (linux/bpf_common.h).
const LD_W_ABS = 0x20;
const JEQ_K = 0x15;
const JGE_K = 0x35;
const JSET_K = 0x45;
const RET_K = 0x06;

type Insn = { op: number; k: number; jt?: string; jf?: string } | { label: string };

/** Resolve labels to the relative offsets classic BPF jumps take (at most 255 forward). */
function assemble(program: Insn[]): Buffer {
  const code = program.filter((i): i is Exclude<Insn, { label: string }> => !("label" in i));
  const at = new Map<string, number>();
  let n = 0;
  for (const i of program) {
    if ("label" in i) at.set(i.label, n);
    else n++;
  }
  const out = Buffer.alloc(code.length * 8);
  code.forEach((i, index) => {
    const jump = (label: string | undefined) => {
      if (label === undefined) return 0;
      const offset = at.get(label)! - (index + 1);
      if (!(offset >= 0 && offset <= 255)) throw new Error(`seccomp jump to ${label} out of range`);
      return offset;
    };
    out.writeUInt16LE(i.op, index * 8);
    out.writeUInt8(jump(i.jt), index * 8 + 2);
    out.writeUInt8(jump(i.jf), index * 8 + 3);
    out.writeUInt32LE(i.k >>> 0, index * 8 + 4);
  });
  return out;
}

function archBlock(arch: "x86_64" | "aarch64"): Insn[] {
  return [
    { label: arch },
    { op: LD_W_ABS, k: OFFSET_NR },
    ...(arch === "x86_64" ? [{ op: JGE_K, k: X32_SYSCALL_BIT, jt: "eperm" }] : []),
    ...Object.values(REFUSED_SYSCALLS).map((nr) => ({ op: JEQ_K, k: nr[arch], jt: "eperm" })),
    { op: JEQ_K, k: CLONE3[arch], jt: "enosys" },
    { op: JEQ_K, k: CLONE[arch], jt: "clone" },
    { op: RET_K, k: SECCOMP_RET_ALLOW },
  ];
}

/** The filter as `struct sock_filter[]` bytes (little-endian: both architectures are). */
export function seccompProgram(): Buffer {
  return assemble([
    { op: LD_W_ABS, k: OFFSET_ARCH },
    { op: JEQ_K, k: AUDIT_ARCH_X86_64, jt: "x86_64" },
    { op: JEQ_K, k: AUDIT_ARCH_AARCH64, jt: "aarch64", jf: "eperm" },
    ...archBlock("x86_64"),
    ...archBlock("aarch64"),
    { label: "clone" },
    { op: LD_W_ABS, k: OFFSET_ARG0_LOW },
    { op: JSET_K, k: CLONE_NEW_FLAGS, jt: "eperm" },
    { op: RET_K, k: SECCOMP_RET_ALLOW },
    { label: "enosys" },
    { op: RET_K, k: SECCOMP_RET_ERRNO | ENOSYS },
    { label: "eperm" },
    { op: RET_K, k: SECCOMP_RET_ERRNO | EPERM },
  ]);
}
