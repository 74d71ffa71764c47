import { describe, expect, test } from "vitest";
import { EGRESS_LIMIT_DEFAULTS, SANDBOX_EGRESS_SOCKET } from "@/lib/sandbox/egress";
import {
  ENV_LOADER,
  TRACED_SYSCALLS,
  SANDBOX_ENV_FD,
  SANDBOX_ENV_FILE,
  SANDBOX_SECCOMP_FD,
  buildSandboxPlan,
  decodeStraceString,
  LauncherSandboxSchema,
  MAX_ATTEMPTS,
  parseTrace,
  type SandboxHost,
} from "@/lib/sandbox/plan";

const FILES: Record<string, "dir" | "file"> = {
  "/repo/node_modules": "dir",
  "/repo/package.json": "file",
  "/repo/servers/x.ts": "file",
  "/repo/server.js": "file",
  "/opt/tool": "dir",
  "/repo/.data": "dir",
};

const host = (over: Partial<SandboxHost> = {}): SandboxHost => ({
  bwrap: "/usr/bin/bwrap",
  prlimit: "/usr/bin/prlimit",
  strace: "/usr/bin/strace",
  socat: "/usr/bin/socat",
  sh: "/usr/bin/dash",
  system: [
    { path: "/usr", kind: "dir" },
    { path: "/lib", kind: "symlink", target: "usr/lib" },
  ],
  etc: ["/etc/ld.so.cache"],
  generatedEtc: "/tmp/gen",
  root: "/repo",
  dataDir: "/repo/.data",
  tmpDir: "/tmp",
  home: "/root",
  stat: (p) => FILES[p] ?? null,
  realpath: (p) => p,
  ...over,
});

const req = (sandbox: unknown = {}, args = ["--import", "tsx", "/repo/servers/x.ts", "stdio"]) => ({
  command: "/usr/bin/node",
  args,
  env: { API_TOKEN: "tok-123456" },
  sandbox: LauncherSandboxSchema.parse(sandbox),
});

const refusal = (r: ReturnType<typeof buildSandboxPlan>) => (r.ok ? "(not refused)" : r.message);

/** Pairs following a flag, e.g. every `--ro-bind SRC DEST` source. */
const after = (args: string[], flag: string) =>
  args.flatMap((a, i) => (a === flag ? [args[i + 1]!] : []));

describe("buildSandboxPlan", () => {
  test("namespaces, uid, private /tmp and HOME, read-only binds of only what the launcher needs, limits, strace outside", () => {
    const r = buildSandboxPlan(host(), req());
    if (!r.ok) throw new Error(r.message);
    const { command, args, env, traced } = r.plan;
    expect(command).toBe("/usr/bin/strace");
    expect(traced).toBe(true);
    for (const flag of [
      "--unshare-all",
      "--unshare-user",
      "--disable-userns",
      "--die-with-parent",
      "--new-session",
    ])
      expect(args).toContain(flag);
    expect(args.join(" ")).toContain("--uid 65534 --gid 65534");
    // /dev read-only, with /dev/shm a tmpfs as small as /tmp (issue 28, finding 6).
    expect(after(args, "--tmpfs")).toEqual(["/dev/shm", "/tmp", "/home/sandbox"]);
    expect(after(args, "--remount-ro")).toEqual(["/dev", "/"]);
    expect(after(args, "--size")).toEqual(["67108864", "67108864", "67108864"]);
    // The seccomp program on its own descriptor, which bwrap reads at setup.
    expect(after(args, "--seccomp")).toEqual([String(SANDBOX_SECCOMP_FD)]);
    expect(r.plan.inputs.map((i) => i.fd)).toEqual([SANDBOX_SECCOMP_FD, SANDBOX_ENV_FD]);
    expect(after(args, "--ro-bind")).toEqual([
      "/usr",
      "/tmp/gen/passwd",
      "/tmp/gen/group",
      "/tmp/gen/hosts",
      "/repo/node_modules",
      "/repo/package.json",
      "/repo/servers",
    ]);
    expect(after(args, "--symlink")).toEqual(["usr/lib"]);
    expect(args).not.toContain("/repo/.data");
    // The checkout's files are shown under SANDBOX_ROOT, not at their host paths.
    const dests = args.flatMap((a, i) => (a === "--ro-bind" ? [args[i + 2]!] : []));
    expect(dests.slice(-3)).toEqual([
      "/srv/relay-review/node_modules",
      "/srv/relay-review/package.json",
      "/srv/relay-review/servers",
    ]);
    expect(r.plan.visible.slice(-3)).toEqual([
      "/repo/node_modules",
      "/repo/package.json",
      "/repo/servers",
    ]);
    expect(after(args, "--chdir")).toEqual(["/srv/relay-review"]);
    expect(
      args.slice(args.lastIndexOf("--remount-ro"), args.lastIndexOf("--remount-ro") + 2),
    ).toEqual(["--remount-ro", "/"]);
    const inner = args.slice(args.lastIndexOf("/usr/bin/prlimit"));
    expect(args[args.lastIndexOf("/usr/bin/prlimit") - 1]).toBe(`${ENV_LOADER}\nexec "$0" "$@"`);
    expect(inner).toEqual([
      "/usr/bin/prlimit",
      "--data=1073741824",
      "--cpu=60",
      "--nproc=256",
      "--fsize=67108864",
      "--nofile=1024",
      "--",
      "/usr/bin/node",
      "--import",
      "tsx",
      "/srv/relay-review/servers/x.ts",
      "stdio",
    ]);
    // The host-side environment is exactly this (nothing from the host, no launcher value), and no
    // value sits in the command line: values go in a file bwrap writes inside from a pipe.
    expect(env).toEqual({
      PATH: "/usr/local/bin:/usr/bin:/bin",
      HOME: "/home/sandbox",
    });
    expect(args.join(" ")).not.toContain("tok-123456");
    expect(args.join(" ")).toContain(`--file ${SANDBOX_ENV_FD} ${SANDBOX_ENV_FILE}`);
    const file = new TextDecoder().decode(
      r.plan.inputs.find((i) => i.fd === SANDBOX_ENV_FD)!.bytes,
    );
    expect(file).toBe(`API_TOKEN ${Buffer.from("tok-123456").toString("base64")}\n`);
    expect(file).not.toContain("tok-123456");
  });

  test("a checkout under the host's /tmp is shown as its own files only, with no host directory name inside", () => {
    const inTmp = {
      root: "/tmp/ci-clone",
      dataDir: "/tmp/ci-clone/.data",
      stat: (p: string) => FILES[p.replace("/tmp/ci-clone", "/repo")] ?? null,
    };
    const r = buildSandboxPlan(
      host(inTmp),
      req({}, ["--import", "tsx", "/tmp/ci-clone/servers/x.ts", "stdio"]),
    );
    if (!r.ok) throw new Error(r.message);
    const dests = r.plan.args.flatMap((a, i) => (a === "--ro-bind" ? [r.plan.args[i + 2]!] : []));
    expect(dests.filter((d) => d.startsWith("/tmp"))).toEqual([]);
    expect(r.plan.args).toContain("/srv/relay-review/servers/x.ts");
    // A launcher's own read path inside /tmp is still refused.
    expect(
      buildSandboxPlan(host({ ...inTmp, stat: () => "dir" }), req({ read: ["/tmp/other"] })),
    ).toMatchObject({ ok: false });
  });

  test("launcher limits override the defaults; without strace, bwrap is spawned directly", () => {
    const r = buildSandboxPlan(
      host({ strace: null }),
      req({ limits: { memoryMiB: 256, cpuSeconds: 5 } }),
    );
    if (!r.ok) throw new Error(r.message);
    expect(r.plan.command).toBe("/usr/bin/bwrap");
    expect(r.plan.traced).toBe(false);
    expect(r.plan.args).toContain("--data=268435456");
    expect(r.plan.args).toContain("--cpu=5");
    expect(r.plan.limits).toMatchObject({ memoryMiB: 256, cpuSeconds: 5, processes: 256 });
  });

  test("a script at the repository root is bound alone, never the root", () => {
    const r = buildSandboxPlan(host(), req({}, ["/repo/server.js"]));
    if (!r.ok) throw new Error(r.message);
    expect(after(r.plan.args, "--ro-bind")).toContain("/repo/server.js");
    expect(after(r.plan.args, "--ro-bind")).not.toContain("/repo");
  });

  test("egress: the proxy's socket bound read-only, socat started before prlimit, every proxy variable set, the namespace still loopback-only", () => {
    const r = buildSandboxPlan(host(), {
      ...req({
        egress: ["api.example.com:443", "10.0.0.0/8:5432"],
        egressLimits: { connections: 2 },
      }),
      egressSocket: "/tmp/relay-review-egress-x/egress.sock",
    });
    if (!r.ok) throw new Error(r.message);
    const { args, env } = r.plan;
    expect(r.plan.egress).toEqual({
      socket: "/tmp/relay-review-egress-x/egress.sock",
      grants: ["api.example.com:443", "10.0.0.0/8:5432"],
      limits: { ...EGRESS_LIMIT_DEFAULTS, connections: 2 },
    });
    const at = args.indexOf("/tmp/relay-review-egress-x/egress.sock");
    expect(args.slice(at - 1, at + 2)).toEqual([
      "--ro-bind",
      "/tmp/relay-review-egress-x/egress.sock",
      SANDBOX_EGRESS_SOCKET,
    ]);
    // Nothing else of the socket's directory, and still a network namespace of its own.
    expect(args).not.toContain("/tmp/relay-review-egress-x");
    expect(args).toContain("--unshare-all");
    expect(args).not.toContain("--share-net");
    expect(at).toBeLessThan(args.lastIndexOf("--remount-ro"));
    // Inside: sh starts the forwarder and waits for it, then execs prlimit (the trace's entry) and the server.
    const sh = args.lastIndexOf("/usr/bin/dash");
    expect(args[sh + 1]).toBe("-c");
    expect(args[sh + 2]).toContain(
      `'/usr/bin/socat' -lp relay-review-egress -T 30 TCP-LISTEN:3128,bind=127.0.0.1,reuseaddr,fork,max-children=5 UNIX-CONNECT:${SANDBOX_EGRESS_SOCKET}`,
    );
    expect(args[sh + 2]).toContain('"0100007F:0C38 0A"');
    expect(args[sh + 2]).toMatch(/^while read -r n b;[^]*exec "\$0" "\$@"$/);
    expect(args[sh + 3]).toBe("/usr/bin/prlimit");
    expect(r.plan.entry).toBe("/usr/bin/prlimit");
    expect(env).toMatchObject({
      HTTP_PROXY: "http://127.0.0.1:3128",
      HTTPS_PROXY: "http://127.0.0.1:3128",
      ALL_PROXY: "http://127.0.0.1:3128",
      http_proxy: "http://127.0.0.1:3128",
      https_proxy: "http://127.0.0.1:3128",
      all_proxy: "http://127.0.0.1:3128",
      NO_PROXY: "",
    });
    expect(env.API_TOKEN).toBeUndefined();
    // Without grants: no forwarder, no socket, no proxy variables.
    const none = buildSandboxPlan(host(), req());
    if (!none.ok) throw new Error(none.message);
    expect(none.plan.egress).toBeNull();
    expect(none.plan.args).not.toContain(SANDBOX_EGRESS_SOCKET);
    expect(none.plan.env.HTTP_PROXY).toBeUndefined();
  });

  test("egress refusals: no socat names the step that installs it; a launcher's own HTTP_PROXY cannot point elsewhere", () => {
    const grant = {
      ...req({ egress: ["api.example.com:443"] }),
      egressSocket: "/tmp/e/egress.sock",
    };
    expect(refusal(buildSandboxPlan(host({ socat: null }), grant))).toContain(
      "`apt-get install socat`",
    );
    const own = buildSandboxPlan(host(), {
      ...grant,
      env: { HTTPS_PROXY: "http://attacker.example:8080" },
    });
    expect(own.ok && own.plan.env.HTTPS_PROXY).toBe("http://127.0.0.1:3128");
    // Nor through the env file loaded inside.
    expect(own.ok && own.plan.inputs.map((i) => i.fd)).toEqual([SANDBOX_SECCOMP_FD]);
  });

  test("refusals: a read path showing the data folder, /tmp or HOME, a missing read path", () => {
    expect(buildSandboxPlan(host(), req({ read: ["/repo/.data"] }))).toMatchObject({ ok: false });
    expect(buildSandboxPlan(host({ stat: () => "dir" }), req({ read: ["/"] }))).toMatchObject({
      ok: false,
    });
    expect(buildSandboxPlan(host({ stat: () => "dir" }), req({ read: ["/tmp"] }))).toMatchObject({
      ok: false,
    });
    expect(
      buildSandboxPlan(host({ stat: () => "dir" }), req({ read: ["/root/.ssh"] })),
    ).toMatchObject({ ok: false });
    expect(refusal(buildSandboxPlan(host(), req({ read: ["/nope"] })))).toContain("does not exist");
    const ok = buildSandboxPlan(host(), req({ read: ["/opt/tool"] }));
    expect(ok.ok && after(ok.plan.args, "--ro-bind")).toContain("/opt/tool");
  });

  test("a read path is compared by where it really leads: a symlink to the data folder is refused (issue 28, finding 10)", () => {
    const links: Record<string, string> = { "/opt/link": "/repo/.data", "/opt/ok": "/opt/tool" };
    const linked = host({
      realpath: (p) => links[p] ?? p,
      stat: (p) => (p in links ? "dir" : (FILES[p] ?? null)),
    });
    expect(refusal(buildSandboxPlan(linked, req({ read: ["/opt/link"] })))).toBe(
      "the launcher's sandbox.read path /opt/link (really /repo/.data) would show the repository root or the data folder: the sandbox refuses to show it",
    );
    // A symlink to an allowed place is bound from where it leads, at the path the launcher named.
    const ok = buildSandboxPlan(linked, req({ read: ["/opt/ok"] }));
    if (!ok.ok) throw new Error(ok.message);
    const at = ok.plan.args.indexOf("/opt/tool");
    expect(ok.plan.args.slice(at - 1, at + 2)).toEqual(["--ro-bind", "/opt/tool", "/opt/ok"]);
  });

  test("a script the sandbox would not show is refused before start, naming the path and the setting", () => {
    const files: Record<string, "dir" | "file"> = {
      ...FILES,
      "/opt/elsewhere/server.js": "file",
      "/opt/elsewhere": "dir",
    };
    const h = host({ stat: (p) => files[p] ?? null });
    expect(refusal(buildSandboxPlan(h, req({}, ["/opt/elsewhere/server.js", "stdio"])))).toBe(
      `the launcher's script /opt/elsewhere/server.js is outside the checkout, so the sandbox does not show it (the server would fail with "Cannot find module"); add its directory to the launcher's sandbox.read (["/opt/elsewhere"]; --sandbox-read /opt/elsewhere on the command line) or move it into the checkout`,
    );
    const shown = buildSandboxPlan(
      h,
      req({ read: ["/opt/elsewhere"] }, ["/opt/elsewhere/server.js", "stdio"]),
    );
    expect(shown.ok ? shown.plan.args : refusal(shown)).toContain("/opt/elsewhere/server.js");
  });

  test("the launcher schema refuses malformed egress and relative read paths", () => {
    expect(LauncherSandboxSchema.safeParse({ egress: ["no port"] }).success).toBe(false);
    expect(LauncherSandboxSchema.safeParse({ egress: ["*.example.com:443"] }).success).toBe(false);
    expect(LauncherSandboxSchema.safeParse({ egressLimits: { connections: 0 } }).success).toBe(
      false,
    );
    expect(LauncherSandboxSchema.safeParse({ read: ["relative/path"] }).success).toBe(false);
    expect(
      LauncherSandboxSchema.safeParse({ egress: ["10.0.0.0/8:443", "api.example.com:443"] })
        .success,
    ).toBe(true);
  });
});

const CTX = {
  entry: "/usr/bin/prlimit",
  command: "/usr/bin/node",
  mirrored: ["/usr", "/repo/node_modules"],
  redact: { API_TOKEN: "tok-123456" },
};

describe("parseTrace", () => {
  test("attempts after the sandbox's first program: failed opens outside the mirror, connects with their outcome, further programs", () => {
    const trace = [
      `execve("/usr/bin/dash", ["/usr/bin/dash"], 0x1 /* 2 vars */) = 0`,
      `openat(AT_FDCWD, "/before/entry", O_RDONLY) = -1 ENOENT (No such file or directory)`,
      `[pid  10] execve("/usr/bin/prlimit", ["/usr/bin/prlimit"], 0x1 /* 2 vars */) = 0`,
      `[pid  10] execve("/usr/bin/node", ["/usr/bin/node"], 0x1 /* 2 vars */) = 0`,
      `[pid  10] openat(AT_FDCWD</repo>, "/usr/lib/x86_64/libfoo.so", O_RDONLY|O_CLOEXEC) = -1 ENOENT (No such file or directory)`,
      `[pid  10] openat(AT_FDCWD</repo>, "/repo/.data/signing-key.pem", O_RDONLY|O_CLOEXEC) = -1 ENOENT (No such file or directory)`,
      `[pid  10] openat(AT_FDCWD</repo>, ".data/owner-token", O_RDONLY|O_CLOEXEC) = -1 ENOENT (No such file or directory)`,
      `[pid  10] openat(AT_FDCWD</repo>, "/repo/.data/signing-key.pem", O_RDONLY|O_CLOEXEC) = -1 ENOENT (No such file or directory)`,
      `[pid  11] openat(AT_FDCWD</repo>, "/repo/node_modules/x", O_WRONLY|O_CREAT|O_TRUNC, 0666 <unfinished ...>`,
      `[pid  10] connect(19<socket:[1]>, {sa_family=AF_INET, sin_port=htons(5432), sin_addr=inet_addr("127.0.0.1")}, 16) = -1 EINPROGRESS (Operation now in progress)`,
      `[pid  11] <... openat resumed>) = -1 EROFS (Read-only file system)`,
      `[pid  10] connect(20<socket:[2]>, {sa_family=AF_INET6, sin6_port=htons(443), sin6_flowinfo=htonl(0), inet_pton(AF_INET6, "::1", &sin6_addr), sin6_scope_id=0}, 28) = -1 EINPROGRESS (Operation now in progress)`,
      `[pid  10] connect(21<socket:[3]>, {sa_family=AF_INET, sin_port=htons(80), sin_addr=inet_addr("192.0.2.2")}, 16) = -1 ENETUNREACH (Network is unreachable)`,
      `[pid  10] getsockopt(19<socket:[1]>, SOL_SOCKET, SO_ERROR, [ECONNREFUSED], [4]) = 0`,
      `[pid  10] connect(22<socket:[4]>, {sa_family=AF_UNIX, sun_path="/run/tok-123456.sock"}, 110) = -1 ENOENT (No such file or directory)`,
      `[pid  12] execve("/bin/sh", ["sh", "-c", "curl"], 0x1 /* 2 vars */) = -1 ENOENT (No such file or directory)`,
      `[pid  10] openat(AT_FDCWD</repo>, "/tmp/\\303\\251\\n\\33[2J", O_RDONLY) = -1 ENOENT (No such file or directory)`,
      `garbage line`,
    ].join("\n");
    const r = parseTrace(trace, CTX);
    expect(r.attempts.map((a) => [a.kind, a.target, a.result, a.count, a.write ?? false])).toEqual([
      ["connect", "192.0.2.2:80", "ENETUNREACH", 1, false],
      ["connect", "127.0.0.1:5432", "ECONNREFUSED", 1, false],
      ["connect", "unix:/run/${API_TOKEN}.sock", "ENOENT", 1, false],
      ["connect", "[::1]:443", "EINPROGRESS", 1, false],
      ["open", "/repo/.data/signing-key.pem", "ENOENT", 2, false],
      ["open", "/repo/.data/owner-token", "ENOENT", 1, false],
      ["open", "/repo/node_modules/x", "EROFS", 1, true],
      ["open", "/tmp/é\n\u001b[2J", "ENOENT", 1, false],
      ["exec", "/bin/sh", "ENOENT", 1, false],
    ]);
    expect(r.notFoundInView).toBe(1);
  });

  test("a short line padded to strace's result column, and the sandbox's start resumed after another process's line, still count", () => {
    // As strace prints under load: the entry's execve split by another process's output, and its
    // resumed half (short) padded with spaces up to column 40; a short failed open padded too.
    const trace = [
      `execve("/usr/bin/dash", ["/usr/bin/dash"], 0x1 /* 2 vars */) = 0`,
      `[pid  10] execve("/usr/bin/prlimit", ["/usr/bin/prlimit"], 0x1 /* 2 vars */ <unfinished ...>`,
      `[pid   9] close(3)                    = 0`,
      `[pid  10] <... execve resumed>)       = 0`,
      `[pid  10] execve("/usr/bin/node", ["/usr/bin/node"], 0x1 /* 2 vars */) = 0`,
      `[pid  10] open("/k", O_RDONLY)        = -1 ENOENT (No such file or directory)`,
      `[pid  10] connect(19<socket:[1]>, {sa_family=AF_INET, sin_port=htons(9), sin_addr=inet_addr("127.0.0.1")}, 16) = -1 ECONNREFUSED (Connection refused)`,
    ].join("\n");
    const r = parseTrace(trace, CTX);
    expect(r.attempts.map((a) => [a.kind, a.target, a.result])).toEqual([
      ["connect", "127.0.0.1:9", "ECONNREFUSED"],
      ["open", "/k", "ENOENT"],
    ]);
  });

  test("every call family it claims: openat2, execveat, sendto/sendmsg/sendmmsg to an address, as strace prints them (issue 28, finding 9)", () => {
    expect(TRACED_SYSCALLS).toEqual(
      expect.arrayContaining(["openat2", "execveat", "sendto", "sendmsg", "sendmmsg"]),
    );
    const trace = [
      `execve("/usr/bin/prlimit", [], 0x1) = 0`,
      `openat2(AT_FDCWD</repo>, "/repo/.data/signing-key.pem", {flags=O_RDONLY, resolve=0}, 24) = -1 ENOENT (No such file or directory)`,
      `openat2(3</tmp>, "rel-rr", {flags=O_WRONLY|O_CREAT, resolve=RESOLVE_NO_SYMLINKS}, 24) = -1 EROFS (Read-only file system)`,
      `execveat(AT_FDCWD</tmp>, "/nonexistent-rr", NULL, NULL, 0) = -1 ENOENT (No such file or directory)`,
      `execveat(5</usr/bin/curl>, "", ["curl"], 0x1 /* 2 vars */, AT_EMPTY_PATH) = -1 EACCES (Permission denied)`,
      `sendto(3<socket:[144474]>, "x", 1, 0, {sa_family=AF_INET, sin_port=htons(53), sin_addr=inet_addr("10.0.0.53")}, 16) = -1 ENETUNREACH (Network is unreachable)`,
      `sendto(4<socket:[1]>, "x", 1, 0, NULL, 0) = 1`,
      `sendmsg(3<socket:[144820]>, {msg_name={sa_family=AF_INET6, sin6_port=htons(9), sin6_flowinfo=htonl(0), inet_pton(AF_INET6, "::1", &sin6_addr), sin6_scope_id=0}, msg_namelen=28, msg_iov=[{iov_base="tok-123456", iov_len=10}], msg_iovlen=1, msg_controllen=0, msg_flags=0}, 0) = 10`,
      `sendmsg(3<socket:[1]>, {msg_name=NULL, msg_namelen=0, msg_iov=[{iov_base="hi", iov_len=2}], msg_iovlen=1, msg_controllen=0, msg_flags=0}, 0) = 2`,
      `sendmmsg(3<socket:[2]>, [{msg_hdr={msg_name={sa_family=AF_INET, sin_port=htons(123), sin_addr=inet_addr("192.0.2.9")}, msg_namelen=16, msg_iov=[{iov_base="a", iov_len=1}], msg_iovlen=1, msg_controllen=0, msg_flags=0}, msg_len=1}], 1, 0) = -1 ENETUNREACH (Network is unreachable)`,
    ].join("\n");
    const r = parseTrace(trace, CTX);
    expect(r.attempts.map((a) => [a.kind, a.target, a.result, a.write ?? false])).toEqual([
      ["send", "10.0.0.53:53", "ENETUNREACH", false],
      ["send", "[::1]:9", "ok", false],
      ["send", "192.0.2.9:123", "ENETUNREACH", false],
      ["open", "/repo/.data/signing-key.pem", "ENOENT", false],
      ["open", "/tmp/rel-rr", "EROFS", true],
      ["exec", "/nonexistent-rr", "ENOENT", false],
      ["exec", "/usr/bin/curl", "EACCES", false],
    ]);
  });

  test("the forwarder's own connects to the proxy socket are plumbing, not attempts; the server's connect to the proxy port is shown", () => {
    const trace = [
      `execve("/usr/bin/prlimit", [], 0x1) = 0`,
      `[pid  20] connect(5<socket:[9]>, {sa_family=AF_UNIX, sun_path="${SANDBOX_EGRESS_SOCKET}"}, 110) = 0`,
      `[pid  21] connect(5<socket:[9]>, {sa_family=AF_UNIX, sun_path="${SANDBOX_EGRESS_SOCKET}"}, 110) = 0`,
      `connect(7<socket:[8]>, {sa_family=AF_INET, sin_port=htons(3128), sin_addr=inet_addr("127.0.0.1")}, 16) = 0`,
      `connect(8<socket:[10]>, {sa_family=AF_UNIX, sun_path="/run/other.sock"}, 110) = -1 ENOENT (No such file or directory)`,
    ].join("\n");
    const r = parseTrace(trace, { ...CTX, plumbing: [`unix:${SANDBOX_EGRESS_SOCKET}`] });
    expect(r.attempts.map((a) => `${a.target} ${a.result}`)).toEqual([
      "127.0.0.1:3128 ok",
      "unix:/run/other.sock ENOENT",
    ]);
  });

  test("bounded: distinct attempts beyond MAX_ATTEMPTS are counted, not kept", () => {
    const lines = [`execve("/usr/bin/prlimit", [], 0x1) = 0`];
    for (let i = 0; i < MAX_ATTEMPTS + 50; i++)
      lines.push(`openat(AT_FDCWD, "/x/${i}", O_RDONLY) = -1 ENOENT (No such file or directory)`);
    const r = parseTrace(lines.join("\n"), CTX);
    expect(r.attempts).toHaveLength(MAX_ATTEMPTS);
    expect(r.droppedAttempts).toBe(50);
  });

  test("decodeStraceString: C escapes and octal bytes back to the UTF-8 text the server passed", () => {
    expect(decodeStraceString(String.raw`a\"b\\c\t\x41\303\251\0`)).toBe('a"b\\c\tAé\u0000');
  });
});
