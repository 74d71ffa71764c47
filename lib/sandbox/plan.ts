/**
 * The sandbox every stdio server the web app starts runs in, as data: the launcher's sandbox
 * settings (limits, extra read-only paths, egress), the bubblewrap command line built from them
 * and from facts about the host, and the parser that turns strace's record of the server's
 * system calls into the attempts shown beside the surface. Pure: node/sandbox.ts gathers the
 * host facts, spawns, and collects the trace.
 *
 * Layout inside the sandbox: the system directories (/usr, /lib*, /bin) and a few public /etc
 * files read-only; generated /etc/passwd, /etc/group and /etc/hosts; the repository's
 * node_modules, package.json and the launcher's script directories read-only at their own paths
 * (so `node --import tsx servers/x.ts` resolves as it does outside); a private tmpfs /tmp and
 * HOME; the root read-only; no data folder, no repository root, no host /tmp or HOME. Its own
 * user, pid, ipc, uts, cgroup and network namespaces (only its own loopback), uid/gid 65534,
 * no further user namespaces (--disable-userns) and a seccomp filter (seccomp.ts); /dev
 * read-only with a sized /dev/shm. The values the launcher passes reach the server through a file
 * bwrap writes inside from a pipe, never through the environ or argv of a host-side process.
 */
import { z } from "zod";
import {
  EgressGrantSchema,
  EgressLimitsSchema,
  SANDBOX_EGRESS_SOCKET,
  SANDBOX_PROXY_PORT,
  SANDBOX_PROXY_URL,
  egressLimits,
  type EgressLimits,
  type EgressReport,
} from "@/lib/sandbox/egress";
import { seccompProgram } from "@/lib/sandbox/seccomp";

/** Named resource limits, set with prlimit inside the sandbox before the server starts. */
export const SANDBOX_LIMIT_DEFAULTS = {
  /**
   * RLIMIT_DATA in MiB: the writable memory the server may map. RLIMIT_AS would be the classic
   * choice, but V8 reserves tens of GiB of address space up front (WebAssembly guard regions),
   * so any useful RLIMIT_AS breaks Node; RLIMIT_DATA counts what is actually writable.
   */
  memoryMiB: 1024,
  /** RLIMIT_CPU: seconds of CPU time per process (SIGXCPU, then SIGKILL). */
  cpuSeconds: 60,
  /** RLIMIT_NPROC: processes and threads of the sandbox's user. */
  processes: 256,
  /** RLIMIT_FSIZE in MiB: the largest file the server may write (into its private /tmp or HOME). */
  fileSizeMiB: 64,
  /** RLIMIT_NOFILE: open file descriptors. */
  openFiles: 1024,
  /** Size of each private tmpfs (/tmp, HOME and /dev/shm) in MiB; tmpfs pages are memory the rlimits do not count. */
  tmpMiB: 64,
  /**
   * The whole sandbox's memory in MiB (every process and its tmpfs pages), bounded by a cgroup
   * where the host lets the workbench make one; the report says plainly when it does not.
   * `processes` bounds the cgroup's process count too.
   */
  totalMemoryMiB: 2048,
} as const;
export type SandboxLimits = { -readonly [K in keyof typeof SANDBOX_LIMIT_DEFAULTS]: number };
export type SandboxLimitName = keyof SandboxLimits;

export const SandboxLimitsSchema = z
  .object({
    memoryMiB: z.number().int().min(64).max(65_536),
    cpuSeconds: z.number().int().min(1).max(3_600),
    processes: z.number().int().min(8).max(4_096),
    fileSizeMiB: z.number().int().min(1).max(4_096),
    openFiles: z.number().int().min(64).max(65_536),
    tmpMiB: z.number().int().min(1).max(4_096),
    totalMemoryMiB: z.number().int().min(64).max(262_144),
  })
  .strict();

/** A launcher's `sandbox` settings in launchers.json. */
export const LauncherSandboxSchema = z
  .object({
    limits: SandboxLimitsSchema.partial().default({}),
    /** Extra host paths the server may read (absolute); never the data folder, the repository root, /tmp or HOME. */
    read: z
      .array(z.string().regex(/^\//, "must be an absolute path").max(1000))
      .max(32)
      .default([]),
    /**
     * Named egress the launcher grants (`host:port`, `CIDR:port`), enforced by the workbench's
     * proxy (lib/sandbox/egress.ts); without any, the server has no network at all.
     */
    egress: z.array(EgressGrantSchema).max(32).default([]),
    /** Bounds on what the server drives through the proxy (EGRESS_LIMIT_DEFAULTS). */
    egressLimits: EgressLimitsSchema.partial().default({}),
  })
  .strict();
export type LauncherSandbox = z.infer<typeof LauncherSandboxSchema>;

export function sandboxLimits(overrides: Partial<SandboxLimits> = {}): SandboxLimits {
  return { ...SANDBOX_LIMIT_DEFAULTS, ...overrides };
}

/** The uid and gid the server has inside the sandbox (outside, a uid of its own: node/sandbox.ts). */
export const SANDBOX_UID = 65534;
/** The file inside the sandbox that carries the launcher's values, and the shell that loads them. */
export const SANDBOX_ENV_FILE = "/run/relay-review/env";
/**
 * Descriptors bwrap reads at setup, each a pipe the workbench writes and closes: the seccomp
 * program and the env file. Fixed numbers above strace's fd 3 (the server's stderr when traced).
 */
export const SANDBOX_SECCOMP_FD = 4;
export const SANDBOX_ENV_FD = 5;
export const SANDBOX_HOME = "/home/sandbox";
/** Where the checkout's node_modules, package.json and script directories appear inside. */
export const SANDBOX_ROOT = "/srv/relay-review";
/** PATH inside the sandbox: only system directories. */
export const SANDBOX_PATH = "/usr/local/bin:/usr/bin:/bin";

/** What node/sandbox.ts found on the host; paths are absolute and real (symlinks resolved). */
export type SandboxHost = {
  bwrap: string;
  prlimit: string;
  /** strace, when installed and working: the trace of attempts needs it. */
  strace: string | null;
  /** socat, which bridges the sandbox's loopback to the egress proxy's socket; needed only to grant egress. */
  socat: string | null;
  /** /bin/sh, for the one redirection strace needs (its trace on fd 2, the server's stderr on fd 3). */
  sh: string;
  /** Top-level system entries: a directory is bound read-only, a symlink recreated. */
  system: Array<{ path: string; kind: "dir" } | { path: string; kind: "symlink"; target: string }>;
  /** Public /etc files and directories that exist (ld.so.cache, ssl, alternatives, …). */
  etc: string[];
  /** A directory of generated passwd, group and hosts files for the sandbox. */
  generatedEtc: string;
  /** The repository root, the data folder, the host's temp dir and HOME: never shown whole. */
  root: string;
  dataDir: string;
  tmpDir: string;
  home: string | null;
  /** Whether a path exists on the host, and whether it is a directory. */
  stat: (p: string) => "dir" | "file" | null;
  /** Where a path really leads (symlinks resolved), as bwrap will follow it. */
  realpath: (p: string) => string;
};

export type SandboxRequest = {
  /** Absolute path of the command (node → this Node's binary). */
  command: string;
  args: string[];
  /** Values the launcher resolved (already allowlisted by name). */
  env: Record<string, string>;
  sandbox: LauncherSandbox;
  /** Host path where the workbench's egress proxy will listen; needed when the launcher grants egress. */
  egressSocket?: string;
  /**
   * `cgroup.procs` files of the cgroups bounding this sandbox (memory, pids): the spawned
   * process joins them before it executes anything, so every process of the sandbox is inside.
   */
  cgroupProcs?: string[];
};

/** What the workbench's egress proxy needs to run beside a sandbox that was granted egress. */
export type SandboxEgress = {
  /** Host path of the proxy's unix socket (bound into the sandbox at SANDBOX_EGRESS_SOCKET). */
  socket: string;
  grants: string[];
  limits: EgressLimits;
};

export type SandboxPlan = {
  /** What to spawn on the host: strace (tracing) or bwrap. */
  command: string;
  args: string[];
  /** The whole environment of the spawned process: PATH, HOME and the proxy variables, never a launcher's value. */
  env: Record<string, string>;
  /** Bytes to write into a pipe on each descriptor bwrap reads (the seccomp program, the env file). */
  inputs: Array<{ fd: number; bytes: Uint8Array }>;
  /** With a trace, strace writes it on fd 2 and the server's stderr comes out on fd 3. */
  traced: boolean;
  limits: SandboxLimits;
  /** Read-only paths from the host, as the server sees them (what a "not found" under them means nothing). */
  mirrored: string[];
  /** The same paths as they are on the host, for the report. */
  visible: string[];
  /** The first program run inside the sandbox; the trace starts at its execve. */
  entry: string;
  /** Set when the launcher grants egress: the proxy to run while the server runs. */
  egress: SandboxEgress | null;
};

/** What node/inspect.ts needs to run a sandboxed target and read its trace. */
export type SandboxRun = {
  plan: SandboxPlan;
  /** `bwrap --version`. */
  mechanism: string;
  traceNote?: string;
  /** The launcher's own command (its execve is not an attempt). */
  command: string;
  /** The launcher's command line, for progress and errors. */
  label: string;
  /** The values the server was given, by name: never echoed back in the report. */
  redact: Record<string, string>;
  /** Host uid/gid to spawn as: one no other host process uses, when the workbench runs as root. */
  uid?: number;
  gid?: number;
  /** What bounds the whole sandbox's memory and processes, or plainly why nothing does. */
  totalBound: TotalBound;
  /** The cgroups to make before the run starts and remove after it (node/sandbox.ts). */
  cgroup?: SandboxCgroupPlan;
};

export type TotalBound =
  | { enforced: true; by: string; memoryMiB: number; processes: number }
  | { enforced: false; reason: string };

/** Directories of the cgroups for one run, and the values written into each. */
export type SandboxCgroupPlan = {
  dirs: Array<{ dir: string; files: Record<string, string> }>;
  procs: string[];
};

export type SandboxPlanResult = { ok: true; plan: SandboxPlan } | { ok: false; message: string };

const within = (p: string, dir: string) =>
  p === dir || p.startsWith(dir.endsWith("/") ? dir : `${dir}/`);
const dirname = (p: string) => p.slice(0, Math.max(1, p.lastIndexOf("/")));

/** Directories that may never be visible: a bind may neither contain them nor lie inside the data folder. */
function forbidden(host: SandboxHost): string[] {
  return [
    host.dataDir,
    `${host.root}/.data`,
    `${host.root}/.env`,
    host.tmpDir,
    ...(host.home ? [host.home] : []),
  ];
}

/**
 * A bind shows what lies under it, so it may contain none of the forbidden places, and nothing
 * inside the data folder may be bound. Nor may a bind lie inside the host's /tmp or HOME (a
 * launcher's `read: ["/root/.ssh"]`), except the checkout's own files: a repository cloned under
 * /tmp is still only its node_modules, package.json and script directories inside.
 */
function checkBind(host: SandboxHost, p: string): string | null {
  if (p === host.root || within(host.dataDir, p))
    return "would show the repository root or the data folder";
  if (within(p, host.dataDir) || within(p, `${host.root}/.data`))
    return "is inside the data folder";
  const hit = forbidden(host).find((f) => within(f, p) || (within(p, f) && !within(p, host.root)));
  return hit ? `would show ${hit}` : null;
}

const SCRIPT = /\.(?:[cm]?[jt]s|py)$/;

/** Script arguments (absolute paths to files under the repository root) whose directory the server needs. */
function scriptPaths(host: SandboxHost, args: readonly string[]): string[] {
  return args.filter(
    (a) => a.startsWith("/") && within(a, host.root) && SCRIPT.test(a) && host.stat(a) === "file",
  );
}

/**
 * The system calls strace records; parseTrace reads each of them. What the seccomp filter refuses
 * (seccomp.ts: io_uring, namespaces, mount, …) never reaches strace: the filter answers
 * first, so those are refused whole rather than traced.
 */
export const TRACED_SYSCALLS = [
  "connect",
  "sendto",
  "sendmsg",
  "sendmmsg",
  "openat",
  "openat2",
  "open",
  "creat",
  "execve",
  "execveat",
  "getsockopt",
];

/** The one step that lets a launcher grant egress (Debian/Ubuntu). */
export const SANDBOX_EGRESS_INSTALL_STEP = "apt-get install socat";

/** What a server granted egress is told: every common spelling of "use this HTTP proxy". */
export function proxyEnvironment(): Record<string, string> {
  const env: Record<string, string> = {};
  for (const name of ["HTTP_PROXY", "HTTPS_PROXY", "ALL_PROXY"]) {
    env[name] = SANDBOX_PROXY_URL;
    env[name.toLowerCase()] = SANDBOX_PROXY_URL;
  }
  // Nothing bypasses the proxy (the sandbox's own loopback has nothing else on it anyway).
  env.NO_PROXY = "";
  env.no_proxy = "";
  // Node 24+ makes fetch and http honour the variables above with this set; older Node ignores it.
  env.NODE_USE_ENV_PROXY = "1";
  return env;
}

/**
 * The env file: one `NAME BASE64` line per value (names are environment-variable names, so a
 * space and a newline never occur in them; base64 carries any value, newlines included).
 */
export function envFile(env: Record<string, string>): string {
  return Object.entries(env)
    .map(([name, value]) => `${name} ${Buffer.from(value, "utf8").toString("base64")}\n`)
    .join("");
}

/**
 * Run inside the sandbox first: export each value of the env file (the `x` keeps trailing
 * newlines a command substitution would strip). Shell builtins, base64 from coreutils.
 */
export const ENV_LOADER = [
  `while read -r n b; do v=$(printf %s "$b" | base64 -d; printf x) || exit 125;`,
  ` export "$n=\${v%x}"; done < ${SANDBOX_ENV_FILE}`,
].join("");

/** Bound on the forwarder's wait: reads of /proc/net/tcp before the server starts anyway (with no network). */
const FORWARDER_WAIT_READS = 20_000;

const shQuote = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`;

/**
 * Run inside the sandbox before prlimit: start socat (a TCP listener on the sandbox's loopback,
 * bridged to the proxy's socket), wait until it listens (reading /proc/net/tcp with shell
 * builtins only, bounded); the script that runs it then execs prlimit and the server. The trace starts at
 * prlimit's execve, so the forwarder's own start is not an attempt of the server's. If socat
 * never listens, the server starts anyway and has no network: fail closed.
 */
export function forwarderScript(socat: string, limits: EgressLimits): string {
  const port = SANDBOX_PROXY_PORT.toString(16).toUpperCase().padStart(4, "0");
  return [
    `${shQuote(socat)} -lp relay-review-egress -T ${limits.idleSeconds}`,
    ` TCP-LISTEN:${SANDBOX_PROXY_PORT},bind=127.0.0.1,reuseaddr,fork,max-children=${limits.connections * 2 + 1}`,
    ` UNIX-CONNECT:${SANDBOX_EGRESS_SOCKET} </dev/null &`,
    // The exec stays outside the redirected loop, so the server's stdin is the MCP pipe.
    `\nup=; i=0; while [ -z "$up" ] && [ $i -lt ${FORWARDER_WAIT_READS} ]; do`,
    ` while read -r _ l _ st _; do [ "$l $st" = "0100007F:${port} 0A" ] && up=1; done </proc/net/tcp;`,
    ` i=$((i+1)); done`,
  ].join("");
}

/** Build the bubblewrap command line, or refuse with the reason. */
export function buildSandboxPlan(host: SandboxHost, request: SandboxRequest): SandboxPlanResult {
  const { sandbox } = request;
  let egress: SandboxEgress | null = null;
  if (sandbox.egress.length) {
    if (!host.socat)
      return {
        ok: false,
        message: `the launcher grants network egress (${sandbox.egress.join(", ")}), which reaches the workbench's egress proxy through socat, and socat is not installed on the workbench; run \`${SANDBOX_EGRESS_INSTALL_STEP}\` (or remove "egress" to inspect it with no network)`,
      };
    if (!request.egressSocket)
      return { ok: false, message: "the egress proxy's socket was not prepared for this run" };
    egress = {
      socket: request.egressSocket,
      grants: [...sandbox.egress],
      limits: egressLimits(sandbox.egressLimits),
    };
  }
  const limits = sandboxLimits(sandbox.limits);
  const args: string[] = [
    "--unshare-all",
    "--unshare-user",
    // No user namespace inside this one: no root with capabilities, no mount (issue 28, finding 7).
    "--disable-userns",
    "--uid",
    String(SANDBOX_UID),
    "--gid",
    String(SANDBOX_UID),
    "--hostname",
    "sandbox",
    "--die-with-parent",
    "--new-session",
    "--cap-drop",
    "ALL",
  ];
  const mirrored: string[] = [];
  const visible: string[] = [];
  const seen = new Set<string>();
  // The checkout's files appear under SANDBOX_ROOT, not at their host path, so that no directory
  // of the host's (a clone under /tmp, a HOME) shows up even as an empty mount point.
  const inside = (p: string) =>
    within(p, host.root) ? `${SANDBOX_ROOT}${p.slice(host.root.length)}` : p;
  /** Bind `source` (a real path) read-only where the server expects `p`. */
  const bind = (p: string, kind: "ro-bind" | "ro-bind-try" = "ro-bind", source = p) => {
    if (seen.has(p)) return;
    seen.add(p);
    args.push(`--${kind}`, source, inside(p));
    mirrored.push(inside(p));
    visible.push(source);
  };
  for (const entry of host.system) {
    if (entry.kind === "dir") bind(entry.path);
    else args.push("--symlink", entry.target, entry.path);
  }
  const isSystem = (p: string) => host.system.some((s) => s.kind === "dir" && within(p, s.path));
  for (const e of host.etc) bind(e, "ro-bind-try");
  for (const f of ["passwd", "group", "hosts"])
    args.push("--ro-bind", `${host.generatedEtc}/${f}`, `/etc/${f}`);
  const tmpBytes = String(limits.tmpMiB * 1024 * 1024);
  // /dev is bwrap's own minimal one, read-only; /dev/shm a tmpfs of the same bounded size as /tmp
  // (bwrap's /dev is otherwise a writable tmpfs of half the host's memory).
  args.push("--proc", "/proc", "--dev", "/dev", "--size", tmpBytes, "--tmpfs", "/dev/shm");
  args.push("--remount-ro", "/dev");
  args.push("--size", tmpBytes, "--tmpfs", "/tmp", "--size", tmpBytes, "--tmpfs", SANDBOX_HOME);
  // The proxy's socket, and nothing else of its directory; connecting needs no write access.
  if (egress) args.push("--ro-bind", egress.socket, SANDBOX_EGRESS_SOCKET);

  const extra: string[] = [];
  if (!isSystem(request.command)) extra.push(request.command);
  if (egress && host.socat && !isSystem(host.socat)) extra.push(host.socat);
  for (const name of ["node_modules", "package.json"]) {
    const p = `${host.root}/${name}`;
    if (host.stat(p)) extra.push(p);
  }
  for (const script of scriptPaths(host, request.args)) {
    const dir = dirname(script);
    // A script at the repository root gets only itself: its directory is the root.
    extra.push(dir === host.root || checkBind(host, dir) ? script : dir);
  }
  for (const p of extra) {
    const problem = checkBind(host, p);
    if (problem) return { ok: false, message: `the sandbox refuses to show ${p}: ${p} ${problem}` };
    if (!isSystem(p)) bind(p);
  }
  // A read path is checked, and bound, where it really leads: bwrap follows symlinks, so a string
  // comparison would let a link show the data folder (issue 28, finding 10).
  for (const p of sandbox.read) {
    if (!host.stat(p))
      return {
        ok: false,
        message: `the launcher's sandbox.read path ${p} does not exist on the workbench`,
      };
    const real = host.realpath(p);
    const problem = checkBind(host, real);
    if (problem)
      return {
        ok: false,
        message: `the launcher's sandbox.read path ${p}${real !== p ? ` (really ${real})` : ""} ${problem}: the sandbox refuses to show it`,
      };
    if (!isSystem(real)) bind(p, "ro-bind", real);
  }
  // Every script the command line names must be visible inside, or the server fails deep in its
  // own stderr ("Cannot find module"): refused now, naming the path and the setting that shows it.
  for (const a of request.args) {
    if (!a.startsWith("/") || !SCRIPT.test(a) || host.stat(a) !== "file") continue;
    if (isSystem(a) || mirrored.some((m) => within(inside(a), m))) continue;
    return {
      ok: false,
      message: `the launcher's script ${a} is outside the checkout, so the sandbox does not show it (the server would fail with "Cannot find module"); add its directory to the launcher's sandbox.read (${JSON.stringify([dirname(a)])}; --sandbox-read ${dirname(a)} on the command line) or move it into the checkout`,
    };
  }
  const inputs: SandboxPlan["inputs"] = [{ fd: SANDBOX_SECCOMP_FD, bytes: seccompProgram() }];
  args.push("--seccomp", String(SANDBOX_SECCOMP_FD));
  // A launcher's own proxy variables never replace the ones that lead to the workbench's proxy.
  const proxyNames = egress ? Object.keys(proxyEnvironment()) : [];
  const launcherEnv = Object.entries(request.env).filter(([n]) => !proxyNames.includes(n));
  if (launcherEnv.length) {
    const file = envFile(Object.fromEntries(launcherEnv));
    inputs.push({ fd: SANDBOX_ENV_FD, bytes: new TextEncoder().encode(file) });
    args.push("--file", String(SANDBOX_ENV_FD), SANDBOX_ENV_FILE);
  }
  // Inside, SANDBOX_ROOT holds only what was bound above; `node --import tsx` resolves from here.
  args.push(
    "--chdir",
    host.stat(`${host.root}/node_modules`) ? SANDBOX_ROOT : SANDBOX_HOME,
    "--remount-ro",
    "/",
  );

  const prlimit = [
    host.prlimit,
    `--data=${limits.memoryMiB * 1024 * 1024}`,
    `--cpu=${limits.cpuSeconds}`,
    `--nproc=${limits.processes}`,
    `--fsize=${limits.fileSizeMiB * 1024 * 1024}`,
    `--nofile=${limits.openFiles}`,
    "--",
  ];
  const before = [
    ...(launcherEnv.length ? [ENV_LOADER] : []),
    ...(egress && host.socat ? [forwarderScript(inside(host.socat), egress.limits)] : []),
  ];
  const inner = [
    ...(before.length ? [host.sh, "-c", `${before.join("\n")}\nexec "$0" "$@"`] : []),
    ...prlimit,
    inside(request.command),
    ...request.args.map((a) => (a.startsWith("/") ? inside(a) : a)),
  ];
  // The launcher's values are in the env file, never here: this environment is the host-side
  // strace's and bwrap's, readable in /proc by whoever runs as their uid.
  const env = {
    PATH: SANDBOX_PATH,
    HOME: SANDBOX_HOME,
    ...(egress ? proxyEnvironment() : {}),
  };
  // Joining the cgroups first: every process of the sandbox starts inside them.
  const joined = (command: string, rest: string[]) =>
    request.cgroupProcs?.length
      ? {
          command: host.sh,
          args: [
            "-c",
            'while [ "$1" != -- ]; do echo $$ > "$1" || exit 125; shift; done; shift; exec "$@"',
            "relay-review-cgroup",
            ...request.cgroupProcs,
            "--",
            command,
            ...rest,
          ],
        }
      : { command, args: rest };
  if (!host.strace) {
    return {
      ok: true,
      plan: {
        ...joined(host.bwrap, [...args, "--", ...inner]),
        env,
        inputs,
        traced: false,
        limits,
        mirrored,
        visible,
        entry: host.prlimit,
        egress,
      },
    };
  }
  // strace runs outside the sandbox, so the server can neither read nor forge the trace: its
  // lines go to strace's fd 2, and the shell hands the sandbox fd 3 as its stderr.
  const strace = [
    "-f",
    "-qq",
    "-y",
    "--seccomp-bpf",
    "-s",
    "1024",
    "-e",
    `trace=${TRACED_SYSCALLS.join(",")}`,
    "--",
    host.sh,
    "-c",
    'exec "$0" "$@" 2>&3 3>&-',
    host.bwrap,
  ];
  return {
    ok: true,
    plan: {
      ...joined(host.strace, [...strace, ...args, "--", ...inner]),
      env,
      inputs,
      traced: true,
      limits,
      mirrored,
      visible,
      entry: host.prlimit,
      egress,
    },
  };
}

// ---------------------------------------------------------------------------------------------
// The trace

export type SandboxAttempt = {
  /** `send`: a datagram (or message) sent to an address without a connect (sendto, sendmsg, sendmmsg). */
  kind: "open" | "connect" | "send" | "exec";
  /** A path, `address:port`, or `unix:path`, as the server named it (attacker-controlled text). */
  target: string;
  /** An errno name (ENOENT, ECONNREFUSED, ENETUNREACH, EROFS, …), or "ok" for a run program or a connection inside the sandbox. */
  result: string;
  /** Opened for writing. */
  write?: boolean;
  /** How many times this exact attempt was seen. */
  count: number;
};

export type SandboxReport =
  | {
      sandboxed: true;
      mechanism: string;
      network: "loopback only";
      limits: SandboxLimits;
      /** Host paths visible read-only. */
      visible: string[];
      /** What bounded the whole sandbox's memory and processes, or why nothing did (older rows: absent). */
      totalBound?: TotalBound;
      /** The host uid the sandbox ran as (one of its own); null when the workbench does not run as root. */
      hostUid?: number | null;
      traced: boolean;
      /** Why there is no trace, when there is none. */
      traceNote?: string;
      attempts: SandboxAttempt[];
      /** Distinct attempts beyond MAX_ATTEMPTS, and trace bytes beyond MAX_TRACE_BYTES. */
      droppedAttempts: number;
      truncated: boolean;
      /** Failed lookups of files that do not exist on the host either (module resolution, loader probes). */
      notFoundInView: number;
      /** Present when the launcher granted egress: every request through the workbench's proxy. */
      egress?: EgressReport;
    }
  | { sandboxed: false; reason: string };

export const MAX_ATTEMPTS = 200;
export const MAX_TRACE_BYTES = 2 * 1024 * 1024;
const MAX_LINE = 16_384;

const ERRNO: Record<number, string> = {
  0: "ok",
  1: "EPERM",
  2: "ENOENT",
  13: "EACCES",
  22: "EINVAL",
  97: "EAFNOSUPPORT",
  98: "EADDRINUSE",
  99: "EADDRNOTAVAIL",
  100: "ENETDOWN",
  101: "ENETUNREACH",
  103: "ECONNABORTED",
  104: "ECONNRESET",
  110: "ETIMEDOUT",
  111: "ECONNREFUSED",
  113: "EHOSTUNREACH",
};

/** strace's C-style string escapes, decoded to the bytes the server passed, then read as UTF-8. */
export function decodeStraceString(s: string): string {
  const bytes: number[] = [];
  for (let i = 0; i < s.length; i++) {
    const c = s[i]!;
    if (c !== "\\") {
      bytes.push(...new TextEncoder().encode(c));
      continue;
    }
    const n = s[++i];
    if (n === undefined) break;
    const simple: Record<string, number> = {
      n: 10,
      t: 9,
      r: 13,
      v: 11,
      f: 12,
      "\\": 92,
      '"': 34,
      "'": 39,
    };
    if (n in simple) bytes.push(simple[n]!);
    else if (n === "x") {
      bytes.push(parseInt(s.slice(i + 1, i + 3), 16));
      i += 2;
    } else if (/[0-7]/.test(n)) {
      let oct = n;
      while (oct.length < 3 && /[0-7]/.test(s[i + 1] ?? "")) oct += s[++i];
      bytes.push(parseInt(oct, 8) & 0xff);
    } else bytes.push(...new TextEncoder().encode(n));
  }
  return new TextDecoder().decode(new Uint8Array(bytes));
}

const QUOTED = '"((?:[^"\\\\]|\\\\.)*)"';

/** `dirfd<path>` decoration from `-y`, for a relative path. */
function resolvePath(dirDecor: string | undefined, p: string): string {
  if (p.startsWith("/") || !dirDecor) return p;
  const base = dirDecor.replace(/\/$/, "");
  return `${base}/${p}`.replace(/\/\.\//g, "/");
}

type Raw = { pid: number; call: string; body: string };

/** Join `<unfinished ...>` / `<... resumed>` halves per pid; yield complete calls. */
function* completeCalls(lines: Iterable<string>): Generator<Raw> {
  const partial = new Map<number, string>();
  for (const line of lines) {
    // `[pid N] call(…)` on stderr (`N call(…)` with -o); the first process has no prefix until it forks.
    const m = /^(?:\[pid +(\d+)\] |(\d+) +)?(.*)$/.exec(line);
    if (!m) continue;
    const pid = Number(m[1] ?? m[2] ?? 0);
    let rest = m[3]!;
    const resumed = /^<\.\.\. (\w+) resumed>(.*)$/.exec(rest);
    if (resumed) {
      const head = partial.get(pid);
      partial.delete(pid);
      if (head === undefined) continue;
      rest = head + resumed[2]!;
    } else if (rest.endsWith(" <unfinished ...>")) {
      partial.set(pid, rest.slice(0, -" <unfinished ...>".length));
      continue;
    }
    const call = /^(\w+)\(/.exec(rest);
    if (call) yield { pid, call: call[1]!, body: rest };
  }
}

function sockaddr(body: string): string | null {
  const inet = /sa_family=AF_INET, sin_port=htons\((\d+)\), sin_addr=inet_addr\("([^"]*)"\)/.exec(
    body,
  );
  if (inet) return `${inet[2]}:${inet[1]}`;
  const inet6 =
    /sa_family=AF_INET6, sin6_port=htons\((\d+)\),.*?inet_pton\(AF_INET6, "([^"]*)"/.exec(body);
  if (inet6) return `[${inet6[2]}]:${inet6[1]}`;
  const unix = new RegExp(`sa_family=AF_UNIX, sun_path=(@?)${QUOTED}`).exec(body);
  if (unix) return `unix:${unix[1]}${decodeStraceString(unix[2]!)}`;
  const fam = /sa_family=(AF_\w+)/.exec(body);
  return fam ? fam[1]! : null;
}

/**
 * A call's outcome. strace pads a short line with spaces up to its result column (40), so a short
 * call, and above all a `<... execve resumed>` line split from its start by another process's
 * output (which happens under load), reads `)          = 0`: the space before `=` is not one.
 */
const errnoOf = (body: string): string | null => {
  const m = /\) += -1 (E[A-Z0-9]+)/.exec(body);
  if (m) return m[1]!;
  return /\) += \d+/.test(body) ? "ok" : null;
};

export type TraceContext = {
  /** The first program run inside the sandbox (prlimit): lines before its execve are bwrap's own. */
  entry: string;
  /** The launcher's command: its own execve is what the launcher says, not an attempt. */
  command: string;
  mirrored: string[];
  /** Resolved env values by name: replaced by `${NAME}` wherever they appear in an attempt. */
  redact: Record<string, string>;
  /**
   * Connect targets that are the sandbox's own plumbing (the egress proxy's socket, which the
   * forwarder connects to once per connection): the proxy records every request made through it.
   */
  plumbing?: string[];
};

export type ParsedTrace = {
  attempts: SandboxAttempt[];
  droppedAttempts: number;
  notFoundInView: number;
};

/** The attempts in strace's output: failed opens outside what the sandbox mirrors, every connect, every further program. */
export function parseTrace(text: string, ctx: TraceContext): ParsedTrace {
  const found = new Map<string, SandboxAttempt>();
  let dropped = 0;
  let notFoundInView = 0;
  const secrets = Object.entries(ctx.redact)
    .filter(([, v]) => v.length >= 4)
    .sort((a, b) => b[1].length - a[1].length);
  const redact = (s: string) =>
    secrets.reduce((acc, [name, v]) => acc.split(v).join(`\${${name}}`), s);
  const add = (a: Omit<SandboxAttempt, "count">) => {
    const attempt = { ...a, target: redact(a.target) };
    const key = JSON.stringify([
      attempt.kind,
      attempt.target,
      attempt.result,
      attempt.write ?? false,
    ]);
    const had = found.get(key);
    if (had) had.count++;
    else if (found.size >= MAX_ATTEMPTS) dropped++;
    else found.set(key, { ...attempt, count: 1 });
  };
  let started = false;
  const before = new Set<number>();
  let entryPid = -1;
  let commandSeen = false;
  const pending = new Map<string, Omit<SandboxAttempt, "count" | "result">>();

  const lines = text.split("\n").map((l) => (l.length > MAX_LINE ? l.slice(0, MAX_LINE) : l));
  for (const { pid, call, body } of completeCalls(lines)) {
    if (!started) {
      if (call === "execve" && body.startsWith(`execve("${ctx.entry}"`) && errnoOf(body) === "ok") {
        started = true;
        entryPid = pid;
      } else before.add(pid);
      continue;
    }
    if (before.has(pid) && pid !== entryPid) continue;
    const result = errnoOf(body);
    if (result === null) continue;
    if (call === "execve" || call === "execveat") {
      const m =
        call === "execve"
          ? new RegExp(`^execve\\(${QUOTED}`).exec(body)
          : new RegExp(`^execveat\\((?:AT_FDCWD|\\d+)(?:<([^>]*)>)?, ${QUOTED}`).exec(body);
      if (!m) continue;
      const target =
        call === "execve"
          ? decodeStraceString(m[1]!)
          : m[2] === ""
            ? (m[1] ?? "") // AT_EMPTY_PATH: the program is the descriptor's file
            : resolvePath(m[1], decodeStraceString(m[2]!));
      if (!commandSeen && pid === entryPid && target === ctx.command && result === "ok") {
        commandSeen = true;
        continue;
      }
      add({ kind: "exec", target, result });
      continue;
    }
    if (call === "openat" || call === "openat2" || call === "open" || call === "creat") {
      if (result === "ok") continue;
      const at = call === "openat" || call === "openat2";
      const m = at
        ? new RegExp(`^${call}\\((?:AT_FDCWD|\\d+)(?:<([^>]*)>)?, ${QUOTED}(.*)$`).exec(body)
        : new RegExp(`^\\w+\\(${QUOTED}(.*)$`).exec(body);
      if (!m) continue;
      const [dir, raw, rest] = at ? [m[1], m[2]!, m[3]!] : [undefined, m[1]!, m[2]!];
      const target = resolvePath(dir, decodeStraceString(raw));
      const write = call === "creat" || /O_WRONLY|O_RDWR|O_CREAT/.test(rest);
      if (
        (result === "ENOENT" || result === "ENOTDIR") &&
        !write &&
        ctx.mirrored.some((d) => within(target, d))
      ) {
        notFoundInView++;
        continue;
      }
      add({ kind: "open", target, result, ...(write ? { write: true } : {}) });
      continue;
    }
    if (call === "connect") {
      const target = sockaddr(body);
      const fd = /^connect\((\d+)/.exec(body)?.[1];
      if (!target || target === "AF_UNSPEC" || ctx.plumbing?.includes(target)) continue;
      if (result === "EINPROGRESS" && fd) {
        const key = `${pid}:${fd}`;
        const prev = pending.get(key);
        if (prev) add({ ...prev, result: "EINPROGRESS" });
        pending.set(key, { kind: "connect", target });
        continue;
      }
      add({ kind: "connect", target, result });
      continue;
    }
    if (call === "sendto" || call === "sendmsg" || call === "sendmmsg") {
      // Only a send that names its destination: on a connected socket the connect was recorded.
      const target = sockaddr(body);
      if (!target || target === "AF_UNSPEC" || target === "AF_NETLINK") continue;
      if (ctx.plumbing?.includes(target)) continue;
      add({ kind: "send", target, result });
      continue;
    }
    if (call === "getsockopt") {
      const m = /^getsockopt\((\d+)(?:<[^>]*>)?, SOL_SOCKET, SO_ERROR, \[(\w+)\]/.exec(body);
      if (!m) continue;
      const key = `${pid}:${m[1]}`;
      const p = pending.get(key);
      if (!p) continue;
      pending.delete(key);
      // strace names the errno (`[ECONNREFUSED]`); a bare number is 0 (connected) or one it does not know.
      const v = m[2]!;
      add({ ...p, result: /^\d+$/.test(v) ? (ERRNO[Number(v)] ?? `errno ${v}`) : v });
    }
  }
  // A non-blocking connect nobody asked about again: the server gave up or was stopped first.
  for (const p of pending.values()) add({ ...p, result: "EINPROGRESS" });
  const order = { connect: 0, send: 1, open: 2, exec: 3 } as const;
  const attempts = [...found.values()].sort((a, b) => order[a.kind] - order[b.kind]);
  return { attempts, droppedAttempts: dropped, notFoundInView };
}
