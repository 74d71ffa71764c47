/**
 * The seccomp program, run through a small classic-BPF interpreter (the subset it uses: absolute
 * word loads, jeq/jge/jset with a constant, return a constant) for each architecture and call.
 * The real kernel's verdicts are checked with bubblewrap in tests/surface/sandbox-hardening.test.ts.
 */
import { describe, expect, test } from "vitest";
import { CLONE_NEW_FLAGS, REFUSED_SYSCALLS, seccompProgram } from "@/lib/sandbox/seccomp";

const ARCH = { x86_64: 0xc000003e, aarch64: 0xc00000b7, i386: 0x40000003 } as const;
const ALLOW = 0x7fff0000;
const EPERM = 0x00050001;
const ENOSYS = 0x00050026;

function run(program: Buffer, arch: number, nr: number, arg0 = 0): number {
  const data = Buffer.alloc(64);
  data.writeInt32LE(nr, 0);
  data.writeUInt32LE(arch, 4);
  data.writeUInt32LE(arg0 >>> 0, 16);
  let a = 0;
  for (let pc = 0; pc < program.length / 8;) {
    const code = program.readUInt16LE(pc * 8);
    const jt = program.readUInt8(pc * 8 + 2);
    const jf = program.readUInt8(pc * 8 + 3);
    const k = program.readUInt32LE(pc * 8 + 4);
    pc++;
    if (code === 0x20) a = data.readUInt32LE(k);
    else if (code === 0x15) pc += a === k ? jt : jf;
    else if (code === 0x35) pc += a >= k ? jt : jf;
    else if (code === 0x45) pc += (a & k) !== 0 ? jt : jf;
    else if (code === 0x06) return k;
    else throw new Error(`opcode ${code.toString(16)} not in the interpreter`);
  }
  throw new Error("fell off the end of the program");
}

describe("the sandbox's seccomp program", () => {
  const program = seccompProgram();

  test.each(Object.keys(REFUSED_SYSCALLS))(
    "%s is refused with EPERM on x86_64 and aarch64",
    (name) => {
      const nr = REFUSED_SYSCALLS[name]!;
      expect(run(program, ARCH.x86_64, nr.x86_64)).toBe(EPERM);
      expect(run(program, ARCH.aarch64, nr.aarch64)).toBe(EPERM);
    },
  );

  test("ordinary calls pass: read, write, openat, connect, execve, mmap", () => {
    for (const nr of [0, 1, 257, 42, 59, 9]) expect(run(program, ARCH.x86_64, nr)).toBe(ALLOW);
    for (const nr of [63, 64, 56, 203, 221, 222])
      expect(run(program, ARCH.aarch64, nr)).toBe(ALLOW);
  });

  test("clone: a fork or a thread passes, any CLONE_NEW* flag is refused; clone3 answers ENOSYS so libc falls back to clone", () => {
    const SIGCHLD = 17;
    const THREAD = 0x3d0f00;
    for (const [arch, clone] of [
      [ARCH.x86_64, 56],
      [ARCH.aarch64, 220],
    ] as const) {
      expect(run(program, arch, clone, SIGCHLD)).toBe(ALLOW);
      expect(run(program, arch, clone, THREAD)).toBe(ALLOW);
      for (let bit = 0; bit < 32; bit++)
        if (CLONE_NEW_FLAGS & (1 << bit))
          expect(run(program, arch, clone, SIGCHLD | (1 << bit))).toBe(EPERM);
      expect(run(program, arch, 435)).toBe(ENOSYS);
    }
  });

  test("another ABI (i386 on x86_64) and x32 calls are refused whole", () => {
    expect(run(program, ARCH.i386, 1)).toBe(EPERM);
    expect(run(program, ARCH.x86_64, 0x40000000 | 1)).toBe(EPERM);
  });
});
