import "server-only";
/**
 * The sandbox for stdio servers the web app starts (the plan is lib/sandbox/plan.ts): finds
 * bubblewrap, prlimit and strace, runs a self-test once per process, gathers the host facts the
 * plan needs, and turns a resolved stdio target into one that runs the same command inside the
 * sandbox. Where no sandbox can be had, stdio inspection is refused naming the one step that
 * enables it; RELAY_REVIEW_UNSANDBOXED=1 is the owner's explicit opt-out (a banner says so).
 * A launcher that grants egress also needs socat; its run gets an egress proxy
 * (node/egress-proxy.ts), started and stopped with the server by the stdio opener (lib/mcp/node/inspect.ts).
 */
import { spawnSync } from "node:child_process";
import { randomInt, randomUUID } from "node:crypto";
import {
  chownSync,
  existsSync,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  readlinkSync,
  realpathSync,
  rmdirSync,
  statSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import {
  buildSandboxPlan,
  sandboxLimits,
  SANDBOX_HOME,
  SANDBOX_UID,
  type LauncherSandbox,
  type SandboxCgroupPlan,
  type SandboxHost,
  type SandboxRun,
  type TotalBound,
} from "@/lib/sandbox/plan";

export type Env = Readonly<Record<string, string | undefined>>;

/** The one step that gives this machine a sandbox (Debian/Ubuntu). */
export const SANDBOX_INSTALL_STEP = "apt-get install bubblewrap";

export function sandboxOptedOut(env: Env = process.env): boolean {
  return env.RELAY_REVIEW_UNSANDBOXED === "1";
}

const SYSTEM_ENTRIES = ["/usr", "/bin", "/sbin", "/lib", "/lib32", "/lib64", "/libx32"];
/** Public /etc pieces programs expect: the loader cache, CA certificates, alternatives symlinks, the time zone. */
const ETC_ENTRIES = [
  "/etc/ld.so.cache",
  "/etc/ld.so.conf",
  "/etc/ld.so.conf.d",
  "/etc/ssl/certs",
  "/etc/ssl/openssl.cnf",
  "/etc/ca-certificates",
  "/etc/ca-certificates.conf",
  "/etc/alternatives",
  "/etc/localtime",
  "/etc/nsswitch.conf",
];

function which(name: string, env: Env): string | null {
  for (const dir of (env.PATH ?? "/usr/local/bin:/usr/bin:/bin").split(":")) {
    if (!dir) continue;
    const p = path.join(dir, name);
    try {
      if (statSync(p).isFile()) return realpathSync(p);
    } catch {
      // not here
    }
  }
  return null;
}

const statKind = (p: string): "dir" | "file" | null => {
  try {
    const s = statSync(p);
    return s.isDirectory() ? "dir" : "file";
  } catch {
    return null;
  }
};

export type SandboxTools = {
  bwrap: string;
  prlimit: string;
  sh: string;
  strace: string | null;
  /** Only launchers that grant egress need it (the bridge to the egress proxy). */
  socat: string | null;
  straceNote?: string;
  version: string;
};
export type SandboxStatus = { ok: true; tools: SandboxTools } | { ok: false; message: string };

const isRoot = () => typeof process.getuid === "function" && process.getuid() === 0;

/** The self-tests run as nobody when the workbench runs as root. */
function hostIds(): { uid: number; gid: number } | null {
  return isRoot() ? { uid: SANDBOX_UID, gid: SANDBOX_UID } : null;
}

/**
 * Host uids for sandboxes: a block far above any account, system range or usual subordinate-id
 * range (/etc/subuid starts at 100000 and grows by 65536 a user).
 */
export const SANDBOX_HOST_UID_BASE = 0x70000000;
const SANDBOX_HOST_UID_SPAN = 0x10000;
const usedHostUids = new Set<number>();

/** Uids of every process on the host now, from /proc/PID/status (real, effective, saved, fs). */
function processUids(): Set<number> {
  const uids = new Set<number>();
  for (const pid of readdirSync("/proc")) {
    if (!/^\d+$/.test(pid)) continue;
    try {
      const line = /^Uid:\s+(.*)$/m.exec(readFileSync(`/proc/${pid}/status`, "utf8"))?.[1];
      for (const u of line?.split(/\s+/) ?? []) uids.add(Number(u));
    } catch {
      // gone already
    }
  }
  return uids;
}

/**
 * When the workbench runs as root, each sandbox runs on the host under a uid of its own that no
 * account names and no other process uses: nothing else can read its /proc entries or signal
 * it, and RLIMIT_NPROC counts this sandbox's processes alone. Null when not root (the sandbox
 * then runs as the workbench's own user, inside its own user namespace).
 */
function allocateHostIds(): { uid: number; gid: number } | null {
  if (!isRoot()) return null;
  const accounts = new Set<number>();
  for (const file of ["/etc/passwd", "/etc/group"])
    for (const line of (existsSync(/*turbopackIgnore: true*/ file)
      ? readFileSync(/*turbopackIgnore: true*/ file, "utf8")
      : ""
    ).split("\n"))
      accounts.add(Number(line.split(":")[2]));
  const running = processUids();
  for (let tries = 0; tries < 64; tries++) {
    const uid = SANDBOX_HOST_UID_BASE + randomInt(SANDBOX_HOST_UID_SPAN);
    if (usedHostUids.has(uid) || accounts.has(uid) || running.has(uid)) continue;
    usedHostUids.add(uid);
    return { uid, gid: uid };
  }
  throw new Error("no free host uid for the sandbox");
}

/** Give a run's host uid back once the run is over. */
export function releaseHostUid(uid: number | undefined): void {
  if (uid !== undefined) usedHostUids.delete(uid);
}

// ---------------------------------------------------------------------------------------------
// The cgroup bounding the whole sandbox

type CgroupSupport =
  | { ok: true; version: "v1"; memory: string; pids: string; memsw: boolean }
  | { ok: true; version: "v2"; base: string }
  | { ok: false; reason: string };

let cgroupSupportCache: CgroupSupport | null = null;

/** Where this host lets the workbench make a cgroup with memory and pids controllers, or why not. */
export function cgroupSupport(): CgroupSupport {
  if (cgroupSupportCache) return cgroupSupportCache;
  cgroupSupportCache = probeCgroups();
  return cgroupSupportCache;
}

function probeCgroups(): CgroupSupport {
  let own: string;
  try {
    own = readFileSync("/proc/self/cgroup", "utf8");
  } catch {
    return { ok: false, reason: "/proc/self/cgroup cannot be read (no cgroups on this host)" };
  }
  const pathOf = (controller: string) =>
    own
      .split("\n")
      .map((l) => l.split(":"))
      .find((f) => f.length >= 3 && f[1]!.split(",").includes(controller))?.[2];
  const writable = (dir: string) => {
    const test = path.join(dir, `relay-review-probe-${process.pid}`);
    try {
      mkdirSync(test);
      rmdirSync(test);
      return true;
    } catch {
      return false;
    }
  };
  const memPath = pathOf("memory");
  const pidsPath = pathOf("pids");
  if (memPath !== undefined && pidsPath !== undefined) {
    const memory = path.join("/sys/fs/cgroup/memory", memPath);
    const pids = path.join("/sys/fs/cgroup/pids", pidsPath);
    // (The root cgroup has no pids.max of its own; its children do.)
    if (
      existsSync(path.join(memory, "memory.limit_in_bytes")) &&
      existsSync(path.join(pids, "cgroup.procs"))
    ) {
      if (writable(memory) && writable(pids))
        return {
          ok: true,
          version: "v1",
          memory,
          pids,
          memsw: existsSync(path.join(memory, "memory.memsw.limit_in_bytes")),
        };
      return {
        ok: false,
        reason: `the workbench may not make a cgroup under ${memory} and ${pids} (it runs as ${isRoot() ? "root, but they are read-only" : "a user they are not delegated to"})`,
      };
    }
  }
  const v2 = own
    .split("\n")
    .find((l) => l.startsWith("0::"))
    ?.slice(3);
  if (v2 !== undefined) {
    for (const mount of ["/sys/fs/cgroup", "/sys/fs/cgroup/unified"]) {
      const base = path.join(/*turbopackIgnore: true*/ mount, v2);
      let controllers = "";
      try {
        controllers = readFileSync(path.join(base, "cgroup.subtree_control"), "utf8");
      } catch {
        continue;
      }
      if (!/\bmemory\b/.test(controllers) || !/\bpids\b/.test(controllers)) continue;
      if (writable(base)) return { ok: true, version: "v2", base };
    }
    return {
      ok: false,
      reason:
        "no cgroup v2 with the memory and pids controllers enabled for the workbench's own cgroup is writable by it (delegate one, e.g. systemd-run --user --scope -p Delegate=yes)",
    };
  }
  return { ok: false, reason: "this host has no memory and pids cgroup controllers" };
}

/** The cgroups of one run: directories, the limits written into them, the files to join. */
function cgroupPlan(
  support: CgroupSupport,
  memoryMiB: number,
  processes: number,
): { plan: SandboxCgroupPlan; bound: TotalBound } | { plan: null; bound: TotalBound } {
  if (!support.ok) return { plan: null, bound: { enforced: false, reason: support.reason } };
  const name = `relay-review-${randomUUID()}`;
  const bytes = String(memoryMiB * 1024 * 1024);
  const bound = {
    enforced: true as const,
    by: `cgroup ${support.version}`,
    memoryMiB,
    processes,
  };
  if (support.version === "v1") {
    const memory = path.join(support.memory, name);
    const pids = path.join(support.pids, name);
    return {
      plan: {
        dirs: [
          {
            dir: memory,
            // memsw (memory and swap together) may be set only once the memory limit is.
            files: {
              "memory.limit_in_bytes": bytes,
              ...(support.memsw ? { "memory.memsw.limit_in_bytes": bytes } : {}),
            },
          },
          { dir: pids, files: { "pids.max": String(processes) } },
        ],
        procs: [path.join(memory, "cgroup.procs"), path.join(pids, "cgroup.procs")],
      },
      bound,
    };
  }
  const dir = path.join(support.base, name);
  return {
    plan: {
      dirs: [
        {
          dir,
          files: { "memory.max": bytes, "memory.swap.max": "0", "pids.max": String(processes) },
        },
      ],
      procs: [path.join(dir, "cgroup.procs")],
    },
    bound,
  };
}

/** Make a run's cgroups and let its host uid join them; throws naming what failed. */
export function createSandboxCgroup(
  plan: SandboxCgroupPlan,
  ids?: { uid?: number; gid?: number },
): void {
  for (const { dir, files } of plan.dirs) {
    mkdirSync(dir);
    for (const [file, value] of Object.entries(files)) {
      const at = path.join(dir, file);
      if (existsSync(at)) writeFileSync(at, value);
    }
  }
  if (ids?.uid !== undefined)
    for (const procs of plan.procs) chownSync(procs, ids.uid, ids.gid ?? ids.uid);
}

/** Remove a run's cgroups once its processes are gone (retried briefly while the last ones exit). */
export async function removeSandboxCgroup(plan: SandboxCgroupPlan): Promise<void> {
  for (const { dir } of plan.dirs) {
    for (let i = 0; i < 50; i++) {
      try {
        rmdirSync(dir);
        break;
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === "ENOENT") break;
        await new Promise((r) => setTimeout(r, 20));
      }
    }
  }
}

function run(command: string, args: string[], ids: { uid: number; gid: number } | null) {
  return spawnSync(command, args, {
    encoding: "utf8",
    timeout: 10_000,
    env: { PATH: "/usr/bin:/bin" } as unknown as NodeJS.ProcessEnv,
    cwd: "/",
    stdio: ["ignore", "pipe", "pipe"],
    ...(ids ?? {}),
  });
}

function probe(env: Env): SandboxStatus {
  const bwrap = env.RELAY_REVIEW_BWRAP ?? which("bwrap", env);
  if (!bwrap || !existsSync(/*turbopackIgnore: true*/ bwrap)) {
    return {
      ok: false,
      message: `stdio servers run only inside a sandbox, and bubblewrap (bwrap) is not installed on the workbench; run \`${SANDBOX_INSTALL_STEP}\``,
    };
  }
  const prlimit = which("prlimit", env);
  const sh = which("sh", env) ?? "/bin/sh";
  if (!prlimit)
    return {
      ok: false,
      message:
        "the sandbox sets its resource limits with prlimit (util-linux), which is not installed on the workbench; run `apt-get install util-linux`",
    };
  const ids = hostIds();
  const self = run(
    bwrap,
    [
      "--unshare-all",
      "--unshare-user",
      "--disable-userns",
      "--uid",
      String(SANDBOX_UID),
      "--gid",
      String(SANDBOX_UID),
      "--die-with-parent",
      "--ro-bind",
      "/usr",
      "/usr",
      ...["/bin", "/lib", "/lib64"].flatMap((p) =>
        lstatSync(p, { throwIfNoEntry: false })?.isSymbolicLink()
          ? ["--symlink", readlinkSync(p), p]
          : existsSync(p)
            ? ["--ro-bind", p, p]
            : [],
      ),
      "--proc",
      "/proc",
      "--dev",
      "/dev",
      "--",
      prlimit,
      "--nproc=64",
      "--",
      "/usr/bin/env",
      "true",
    ],
    ids,
  );
  if (self.status !== 0) {
    const why = (self.stderr || self.error?.message || `exit ${self.status}`).trim().slice(0, 500);
    return {
      ok: false,
      message: `stdio servers run only inside a sandbox, and bubblewrap failed its self-test here (${why}); on Debian, \`${SANDBOX_INSTALL_STEP}\` (0.8.0 or later, for --disable-userns) and allow unprivileged user namespaces (sysctl kernel.unprivileged_userns_clone=1)`,
    };
  }
  const version = (run(bwrap, ["--version"], null).stdout || "bubblewrap").trim();
  const strace = env.RELAY_REVIEW_STRACE ?? which("strace", env);
  let straceNote: string | undefined;
  let usable: string | null = null;
  if (!strace || !existsSync(/*turbopackIgnore: true*/ strace))
    straceNote =
      "strace is not installed, so what the server tried is not recorded (apt-get install strace)";
  else {
    const t = run(
      strace,
      ["-f", "-qq", "--seccomp-bpf", "-e", "trace=execve", "--", "/usr/bin/env", "true"],
      ids,
    );
    if (t.status === 0) usable = strace;
    else
      straceNote = `strace failed its self-test (${(t.stderr || t.error?.message || `exit ${t.status}`).trim().slice(0, 300)}), so what the server tried is not recorded`;
  }
  const socat = env.RELAY_REVIEW_SOCAT ?? which("socat", env);
  return {
    ok: true,
    tools: {
      bwrap,
      prlimit,
      sh,
      strace: usable,
      socat: socat && existsSync(/*turbopackIgnore: true*/ socat) ? socat : null,
      ...(straceNote ? { straceNote } : {}),
      version,
    },
  };
}

const STATUS_KEY = Symbol.for("relay-review.sandbox-status");
type Cache = Map<string, SandboxStatus>;
const cache: Cache =
  ((globalThis as Record<symbol, unknown>)[STATUS_KEY] as Cache | undefined) ??
  new Map<string, SandboxStatus>();
(globalThis as Record<symbol, unknown>)[STATUS_KEY] = cache;

/**
 * Whether a sandbox can be had here. A passed self-test is kept for the process; a failed one is
 * retried on the next inspection, so `apt-get install bubblewrap` takes effect without a restart.
 * The same holds for strace: a status without a usable strace is not kept, so neither installing
 * it nor one self-test that failed (timed out on a loaded host) leaves every later run untraced.
 */
export function sandboxStatus(env: Env = process.env): SandboxStatus {
  const key = [env.RELAY_REVIEW_BWRAP, env.RELAY_REVIEW_STRACE, env.RELAY_REVIEW_SOCAT, env.PATH]
    .map((v) => v ?? "")
    .join("\u0000");
  const cached = cache.get(key);
  if (cached) return cached;
  const s = probe(env);
  if (s.ok && s.tools.strace) cache.set(key, s);
  return s;
}

let generatedEtc: string | null = null;
/** passwd, group and hosts for the sandbox; written once per process into a private directory. */
function generatedEtcDir(): string {
  if (generatedEtc && existsSync(path.join(generatedEtc, "hosts"))) return generatedEtc;
  const dir = mkdtempSync(path.join(tmpdir(), "relay-review-sandbox-etc-"));
  writeFileSync(
    path.join(dir, "passwd"),
    `sandbox:x:${SANDBOX_UID}:${SANDBOX_UID}:MCP server under review:${SANDBOX_HOME}:/usr/sbin/nologin\n`,
    { mode: 0o644 },
  );
  writeFileSync(path.join(dir, "group"), `sandbox:x:${SANDBOX_UID}:\n`, { mode: 0o644 });
  writeFileSync(path.join(dir, "hosts"), "127.0.0.1 localhost sandbox\n::1 localhost\n", {
    mode: 0o644,
  });
  // mkdtemp makes the directory 0700; bwrap running as nobody must read it.
  spawnSync("chmod", ["0755", dir]);
  generatedEtc = dir;
  return dir;
}

export function sandboxHost(
  tools: SandboxTools,
  root: string,
  dataDir: string,
  env: Env = process.env,
): SandboxHost {
  const system: SandboxHost["system"] = [];
  for (const p of SYSTEM_ENTRIES) {
    const st = lstatSync(p, { throwIfNoEntry: false });
    if (!st) continue;
    if (st.isSymbolicLink()) system.push({ path: p, kind: "symlink", target: readlinkSync(p) });
    else if (st.isDirectory()) system.push({ path: p, kind: "dir" });
  }
  const real = (p: string) => {
    try {
      return realpathSync(p);
    } catch {
      return path.resolve(p);
    }
  };
  return {
    bwrap: tools.bwrap,
    prlimit: tools.prlimit,
    strace: tools.strace,
    socat: tools.socat,
    sh: tools.sh,
    system,
    etc: ETC_ENTRIES.filter((p) => existsSync(/*turbopackIgnore: true*/ p)),
    generatedEtc: generatedEtcDir(),
    root: real(root),
    dataDir: real(dataDir),
    tmpDir: real(tmpdir()),
    home: env.HOME ? real(env.HOME) : null,
    stat: statKind,
    realpath: real,
  };
}

/**
 * What of a stdio target the sandbox reads and rewrites (lib/mcp/types.ts's stdio InspectTarget
 * has this shape; named here so the sandbox does not import the MCP session's types).
 */
export type StdioTarget = {
  kind: "stdio";
  command: string;
  args: string[];
  env?: Record<string, string>;
  cwd?: string;
  sandbox?: SandboxRun;
};

/**
 * The same stdio target, run inside the sandbox: an error value (refusal) when there is none.
 * Relative script paths are already absolute (resolve-target.ts); `node` is this Node's binary.
 */
export function sandboxTarget(
  target: StdioTarget,
  options: {
    sandbox: LauncherSandbox;
    root: string;
    dataDir: string;
    env?: Env;
    /** False: no strace around the server even where it is installed (a server that stays up, the gate). */
    trace?: boolean;
  },
): { ok: true; target: StdioTarget & { sandbox: SandboxRun } } | { ok: false; message: string } {
  const env = options.env ?? process.env;
  const status = sandboxStatus(env);
  if (!status.ok) return status;
  const command = path.isAbsolute(target.command) ? target.command : which(target.command, env);
  if (!command)
    return {
      ok: false,
      message: `the launcher's command ${JSON.stringify(target.command)} is not found on the workbench's PATH`,
    };
  const found = sandboxHost(status.tools, options.root, options.dataDir, env);
  const host = options.trace === false ? { ...found, strace: null } : found;
  const realCommand = realpathSync(command);
  const limits = sandboxLimits(options.sandbox.limits);
  const cgroup = cgroupPlan(cgroupSupport(), limits.totalMemoryMiB, limits.processes);
  const built = buildSandboxPlan(host, {
    ...(cgroup.plan ? { cgroupProcs: cgroup.plan.procs } : {}),
    command: realCommand,
    args: target.args,
    env: target.env ?? {},
    sandbox: options.sandbox,
    // Made when the run starts (node/egress-proxy.ts), in a directory nobody can have made first.
    ...(options.sandbox.egress.length
      ? {
          egressSocket: path.join(
            host.tmpDir,
            `relay-review-egress-${randomUUID()}`,
            "egress.sock",
          ),
        }
      : {}),
  });
  if (!built.ok) return built;
  const ids = allocateHostIds();
  return {
    ok: true,
    target: {
      kind: "stdio",
      command: built.plan.command,
      args: built.plan.args,
      env: built.plan.env,
      cwd: "/",
      sandbox: {
        plan: built.plan,
        mechanism: status.tools.version,
        ...(options.trace === false
          ? { traceNote: "not traced: this run stays up, and a trace would slow every call" }
          : status.tools.straceNote
            ? { traceNote: status.tools.straceNote }
            : {}),
        command: realCommand,
        label: [target.command, ...target.args].join(" "),
        redact: target.env ?? {},
        ...(ids ?? {}),
        totalBound: cgroup.bound,
        ...(cgroup.plan ? { cgroup: cgroup.plan } : {}),
      },
    },
  };
}
