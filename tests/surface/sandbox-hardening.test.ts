/**
 * The sandbox's hardening with real bubblewrap (issue 28, findings 6, 7 and 8): a shell probe run
 * inside the sandbox exactly as a stdio server is (sandboxTarget → spawnStdioServer, the run's
 * cgroup made and removed as the stdio opener does) tries each escape and prints what it got;
 * the host side is read from /proc while it runs. Nothing leaves the machine.
 */
import type { ChildProcess } from "node:child_process";
import { mkdtempSync, mkdirSync, readdirSync, readFileSync, readlinkSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import {
  createSandboxCgroup,
  releaseHostUid,
  removeSandboxCgroup,
  SANDBOX_HOST_UID_BASE,
  sandboxStatus,
  sandboxTarget,
  type StdioTarget,
} from "@/lib/sandbox/node/sandbox";
import { spawnStdioServer } from "@/lib/sandbox/node/spawn";
import { LauncherSandboxSchema, parseTrace } from "@/lib/sandbox/plan";
import { ROOT } from "./helpers";

/** x86_64 and aarch64 numbers of the calls the probe makes through perl's syscall(). */
const NR =
  process.arch === "arm64"
    ? { io_uring_setup: 425, ptrace: 117, bpf: 280, keyctl: 219, clone: 220, execveat: 281 }
    : { io_uring_setup: 425, ptrace: 101, bpf: 321, keyctl: 250, clone: 56, execveat: 322 };
const OPENAT2 = 437;

let base: string;
let dataDir: string;
const env = { PATH: process.env.PATH ?? "/usr/bin:/bin" };

beforeAll(() => {
  base = mkdtempSync(path.join(tmpdir(), "rr-hardening-"));
  dataDir = path.join(base, "data");
  mkdirSync(dataDir);
});
afterAll(() => rmSync(base, { recursive: true, force: true }));

type Run = {
  target: StdioTarget;
  child: ChildProcess;
  output: Promise<string>;
  /** strace's record, when traced (complete once output has resolved). */
  trace: () => string;
};

/** Start `sh -c script` in the sandbox as the stdio opener starts a server. */
function start(
  script: string,
  settings: unknown = {},
  options: { values?: Record<string, string>; trace?: boolean } = {},
): Run {
  const s = sandboxTarget(
    { kind: "stdio", command: "/bin/sh", args: ["-c", script], env: options.values ?? {} },
    {
      sandbox: LauncherSandboxSchema.parse(settings),
      root: ROOT,
      dataDir,
      env,
      trace: options.trace ?? false,
    },
  );
  if (!s.ok) throw new Error(s.message);
  const run = s.target.sandbox;
  if (run.cgroup) createSandboxCgroup(run.cgroup, run);
  const child = spawnStdioServer({
    command: s.target.command,
    args: s.target.args,
    env: s.target.env ?? {},
    cwd: "/",
    sandboxed: { traced: run.plan.traced, uid: run.uid, gid: run.gid, inputs: run.plan.inputs },
  });
  child.stdin?.end();
  let out = "";
  let err = "";
  child.stdout?.on("data", (d: Buffer) => (out += d.toString()));
  (run.plan.traced ? (child.stdio[3] as NodeJS.ReadableStream) : child.stderr)?.on(
    "data",
    (d: Buffer) => (err += d.toString()),
  );
  let trace = "";
  if (run.plan.traced) child.stderr?.on("data", (d: Buffer) => (trace += d.toString()));
  else child.stderr?.resume();
  const output = new Promise<string>((resolve) =>
    child.once("close", () => {
      void (run.cgroup ? removeSandboxCgroup(run.cgroup) : Promise.resolve()).then(() => {
        releaseHostUid(run.uid);
        resolve(out + (out.includes("=") ? "" : `\n(stderr) ${err}`));
      });
    }),
  );
  return { target: s.target, child, output, trace: () => trace };
}

/** `key=value` lines of the probe's output. */
const said = (text: string) =>
  Object.fromEntries(
    text
      .split("\n")
      .filter((l) => l.includes("="))
      .map((l) => [l.slice(0, l.indexOf("=")), l.slice(l.indexOf("=") + 1)]),
  );

describe(
  "the sandbox's hardening, probed from inside with real bubblewrap",
  { timeout: 60_000 },
  () => {
    test("/dev is read-only and /dev/shm is as small as /tmp: 150 MiB does not fit (finding 6)", async () => {
      const r = start(
        [
          "head -c 157286400 /dev/zero > /dev/shm/big 2>/dev/null; echo shm=$?",
          "echo shm_bytes=$(wc -c < /dev/shm/big)",
          "(echo x > /dev/planted) 2>/dev/null; echo dev_write=$?",
        ].join("\n"),
      );
      const got = said(await r.output);
      expect(got.shm).not.toBe("0");
      expect(Number(got.shm_bytes)).toBeLessThanOrEqual(64 * 1024 * 1024);
      expect(got.dev_write).not.toBe("0");
    });

    test("a fork bomb is bounded by the sandbox's process limit, and the run says what bounds it (finding 6)", async () => {
      const r = start(
        [
          // dash gives up at the first fork that fails, so the bomb runs in a subshell of its own.
          "(i=0; while [ $i -lt 200 ]; do sleep 30 & i=$((i+1)); done) 2>/dev/null",
          // Counted with builtins only: once the bound is reached, nothing more can be started.
          "n=0; for p in /proc/[0-9]*; do n=$((n+1)); done; echo procs=$n",
        ].join("\n"),
        { limits: { processes: 32 } },
      );
      const run = r.target.sandbox!;
      expect(run.totalBound).toMatchObject({ enforced: true, processes: 32 });
      const out = await r.output;
      const got = said(out);
      expect(Number(got.procs), out).toBeGreaterThan(8);
      expect(Number(got.procs)).toBeLessThanOrEqual(32);
    });

    test("the whole sandbox's memory is bounded, not each process alone: four 48 MiB processes under 128 MiB do not all live (finding 6)", async () => {
      const r = start(
        [
          'for i in 1 2 3 4; do perl -e \'$x = "a" x (48*1024*1024); sleep 4; print "alive\\n"\' & done',
          "wait",
        ].join("\n"),
        { limits: { totalMemoryMiB: 128 } },
      );
      const out = await r.output;
      const alive = out.split("\n").filter((l) => l === "alive").length;
      expect(alive).toBeLessThan(4);
    });

    test("no namespace, mount, io_uring, ptrace, bpf, keyring or clone(CLONE_NEWUSER) inside (finding 7)", async () => {
      const perl = (name: string, code: string) =>
        `perl -e '${code}; print "${name}=", ($r < 0 ? $!+0 : "ok"), "\\n"'`;
      const r = start(
        [
          "unshare -U true 2>/dev/null; echo unshare_user=$?",
          "unshare -Urm sh -c 'mount -t tmpfs none /tmp' 2>/dev/null; echo mount_in_userns=$?",
          "mount -t tmpfs none /tmp 2>/dev/null; echo mount=$?",
          perl(
            "io_uring_setup",
            `my $p = "\\0" x 120; my $r = syscall(${NR.io_uring_setup}, 4, $p)`,
          ),
          perl("ptrace", `my $r = syscall(${NR.ptrace}, 0, 0, 0, 0)`),
          perl("bpf", `my $a = "\\0" x 72; my $r = syscall(${NR.bpf}, 0, $a, 72)`),
          perl("keyctl", `my $r = syscall(${NR.keyctl}, 0, -3, 0)`),
          perl(
            "clone_newuser",
            `my $r = syscall(${NR.clone}, 0x10000011, 0, 0, 0, 0); exit 0 if $r == 0`,
          ),
          // An ordinary fork still works (clone without CLONE_NEW*), and so does a thread (clone3 → clone).
          "echo fork=$(sh -c 'echo ok')",
          `echo node_thread=$(${process.execPath} -e 'new (require("node:worker_threads").Worker)("process.exit(0)", {eval:true}).on("exit", () => console.log("ok"))')`,
        ].join("\n"),
      );
      const got = said(await r.output);
      const EPERM = "1";
      expect(got).toMatchObject({
        io_uring_setup: EPERM,
        ptrace: EPERM,
        bpf: EPERM,
        keyctl: EPERM,
        clone_newuser: EPERM,
        fork: "ok",
        node_thread: "ok",
      });
      for (const k of ["unshare_user", "mount_in_userns", "mount"]) expect(got[k]).not.toBe("0");
    });

    test("no launcher value is in the argv or environ of any host-side process; the sandbox's host uid is one no other process uses (finding 8)", async () => {
      const secret = `sekrit-${process.pid}-${Date.now()}-value`;
      const r = start(
        "echo got=${#API_TOKEN}; sleep 3; echo done=1",
        {},
        {
          values: { API_TOKEN: secret },
          trace: true,
        },
      );
      const uid = r.target.sandbox!.uid!;
      if (process.getuid?.() === 0) expect(uid).toBeGreaterThanOrEqual(SANDBOX_HOST_UID_BASE);
      // While it runs: every process on the host, sandbox or not.
      await new Promise((res) => setTimeout(res, 1_500));
      const ownPidNs = readlinkSync("/proc/self/ns/pid");
      const leaks: string[] = [];
      const uidUsers: string[] = [];
      let hostSide = 0;
      for (const pid of readdirSync("/proc").filter((p) => /^\d+$/.test(p))) {
        try {
          const cmdline = readFileSync(`/proc/${pid}/cmdline`, "latin1");
          const status = readFileSync(`/proc/${pid}/status`, "utf8");
          const procUid = Number(/^Uid:\s+(\d+)/m.exec(status)?.[1]);
          const outside = readlinkSync(`/proc/${pid}/ns/pid`) === ownPidNs;
          if (procUid === uid) {
            if (outside) hostSide++;
            // Every process with the sandbox's uid is the sandbox's: strace, bwrap, the server.
            if (!/strace|bwrap|sh|sleep/.test(cmdline)) uidUsers.push(`${pid} ${cmdline}`);
          }
          if (cmdline.includes(secret)) leaks.push(`${pid} cmdline`);
          if (outside && readFileSync(`/proc/${pid}/environ`, "latin1").includes(secret))
            leaks.push(`${pid} environ ${cmdline.replace(/\0/g, " ")}`);
        } catch {
          // gone, or not ours to read
        }
      }
      const got = said(await r.output);
      // The server inside got the value, through the env file.
      expect(got.got).toBe(String(secret.length));
      expect(got.done).toBe("1");
      expect(hostSide).toBeGreaterThan(0);
      expect(leaks).toEqual([]);
      expect(uidUsers).toEqual([]);
    });

    test("the trace records openat2, execveat and a datagram sent to an address (finding 9)", async () => {
      const r = start(
        [
          `perl -e 'my $how = pack("QQQ", 0, 0, 0); my $p = "/rr-openat2-probe"; syscall(${OPENAT2}, -100, $p, $how, 24)'`,
          `perl -e 'my $p = "/rr-execveat-probe"; syscall(${NR.execveat}, -100, $p, 0, 0, 0)'`,
          `perl -MSocket -e 'socket(S, PF_INET, SOCK_DGRAM, 0); send(S, "x", 0, pack_sockaddr_in(9, inet_aton("127.0.0.1")))'`,
          "echo done=1",
        ].join("\n"),
        {},
        { trace: true },
      );
      const out = await r.output;
      expect(said(out).done, out).toBe("1");
      const run = r.target.sandbox!;
      // Untraced, or traced with nothing recorded, says so by name rather than as an empty list.
      const status = sandboxStatus(env);
      expect(run.plan.traced, status.ok ? status.tools.straceNote : status.message).toBe(true);
      expect(r.trace(), "strace recorded nothing").not.toBe("");
      const { attempts } = parseTrace(r.trace(), {
        entry: run.plan.entry,
        command: run.command,
        mirrored: run.plan.mirrored,
        redact: {},
      });
      const seen = attempts.map((a) => `${a.kind} ${a.target} ${a.result}`);
      expect(seen, seen.join("\n")).toEqual(
        expect.arrayContaining([
          "open /rr-openat2-probe ENOENT",
          "exec /rr-execveat-probe ENOENT",
          "send 127.0.0.1:9 ok",
        ]),
      );
    });
  },
);
