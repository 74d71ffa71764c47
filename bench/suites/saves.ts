/**
 * Saving a review as fifty reviewers do, through the production app's JSON API (PUT
 * /api/reviews/:id with the revision it was based on), each reviewer signed in once and saving
 * through its session (cookie, origin proof, same-origin headers), on the embedded store and on
 * PostgreSQL:
 * 1. steady load: fifty clients, each saving its own review once a second (phases spread over the
 *    second) for LOAD_SECONDS; figure: p99 latency, goal < 100 ms;
 * 2. saturation: the same fifty saving back to back for SATURATION_SECONDS; figure: saves per
 *    second, goal: at least the steady load's offered rate (fifty a second);
 * 3. one review: fifty clients updating one shared review, each its own counter, re-reading and
 *    re-applying on a 409 (bounded), until each has landed UPDATES_PER_CLIENT saves; goal: every
 *    lost race answered 409 (no other status), and the last revision holds every counter at its
 *    full value (no update lost) with exactly 1 + 50 × UPDATES_PER_CLIENT revisions.
 * PostgreSQL runs against a fresh database on BENCH_DATABASE_URL (default the local server),
 * dropped afterwards; unreachable, it is reported as not measured.
 *
 * Each store is measured from a fresh child process (this file run on its own, see
 * `measureInChild`): a latency is read in the process that sends the save, and in `npm run bench`
 * that process has run every suite before this one and holds what they left (82–90 MB of heap at
 * this suite's start, 21 MB run alone). Its major collections stop all fifty clients at once, with
 * a dozen saves in flight (186–207 ms seen there, 84 ms alone, at load averages of 10–20 on two
 * cores): a pause of the clients, counted as the app's latency. From a fresh process the figure
 * is the same measure wherever the suite runs.
 */
import { randomBytes } from "node:crypto";
import pg from "pg";
import { spawn } from "node:child_process";
import { fileURLToPath, pathToFileURL } from "node:url";
import { availableParallelism, loadavg } from "node:os";
import { SESSION_PROOF_HEADER } from "@/lib/auth/session";
import { createDemoReview } from "@/lib/review/demo";
import type { Review } from "@/lib/review/schema";
import { appServerUnavailable, startAppServer, type AppServer } from "../support/app-server";
import { type BenchResult } from "../types";

const CLIENTS = 50;
const LOAD_SECONDS = 10;
const WARMUP_SECONDS = 2;
const SATURATION_SECONDS = 5;
const UPDATES_PER_CLIENT = 4;
/** Bound on one client's retries of a single update in the shared-review run. */
const MAX_ATTEMPTS_PER_UPDATE = 500;
const P99_GOAL_MS = 100;
const ADMIN_URL = process.env.BENCH_DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/test";

type Api = { base: string; headers: Record<string, string> };

/**
 * One reviewer's API client: a session opened by signing in (one owner-token use, logged once),
 * then every request with the session cookie and its origin proof, and every write with the
 * Origin and Sec-Fetch-Site a browser sends from the workbench's own page (lib/auth/check.ts).
 * The owner bearer token on every save would be break-glass use, logged as an audit event per
 * request, which is not what fifty reviewers' saves cost.
 */
async function sessionApi(server: AppServer): Promise<Api> {
  const res = await fetch(`${server.base}/api/auth/sign-in`, {
    method: "POST",
    headers: {
      "Content-Type": "application/json",
      Origin: server.base,
      "Sec-Fetch-Site": "same-origin",
    },
    body: JSON.stringify({ token: server.token }),
  });
  if (res.status !== 204) throw new Error(`sign-in answered ${res.status}`);
  const cookie = res.headers.get("set-cookie")?.split(";")[0];
  const proof = res.headers.get(SESSION_PROOF_HEADER);
  if (!cookie || !proof) throw new Error("the sign-in response carries no session cookie or proof");
  return {
    base: server.base,
    headers: {
      Cookie: cookie,
      [SESSION_PROOF_HEADER]: proof,
      Origin: server.base,
      "Sec-Fetch-Site": "same-origin",
      "Content-Type": "application/json",
    },
  };
}
type Saved = { id: string; revision: number; review: Review };

async function createReviewVia(api: Api, review: Review): Promise<Saved> {
  const res = await fetch(`${api.base}/api/reviews`, {
    method: "POST",
    headers: api.headers,
    body: JSON.stringify({ review }),
  });
  if (res.status !== 201)
    throw new Error(
      `creating a review answered ${res.status}: ${(await res.text()).slice(0, 300)}`,
    );
  return (await res.json()) as Saved;
}

async function getReviewVia(api: Api, id: string): Promise<Saved> {
  const res = await fetch(`${api.base}/api/reviews/${id}`, { headers: api.headers });
  if (res.status !== 200) throw new Error(`reading a review answered ${res.status}`);
  return (await res.json()) as Saved;
}

type PutOutcome = { status: number; ms: number; body: unknown };

async function putReview(
  api: Api,
  id: string,
  baseRevision: number,
  review: Review,
): Promise<PutOutcome> {
  const t = performance.now();
  const res = await fetch(`${api.base}/api/reviews/${id}`, {
    method: "PUT",
    headers: api.headers,
    body: JSON.stringify({ baseRevision, review }),
  });
  const body = (await res.json()) as unknown;
  return { status: res.status, ms: performance.now() - t, body };
}

function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? NaN;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** One reviewer's edit: a new summary each time, so every save writes a different document. */
function edited(review: Review, n: number): Review {
  return { ...review, summary: `edit ${n}` };
}

async function steadyLoad(
  apis: Api[],
  own: Saved[],
): Promise<{ p50: number; p99: number; count: number; errors: number }> {
  const latencies: number[] = [];
  let errors = 0;
  const started = performance.now();
  const end = started + (WARMUP_SECONDS + LOAD_SECONDS) * 1000;
  await Promise.all(
    own.map(async (saved, i) => {
      let revision = saved.revision;
      // Each client starts at its own phase within the second, as fifty independent people would.
      let next = started + (i / own.length) * 1000;
      for (let n = 1; ; n++) {
        if (next >= end) return;
        await sleep(Math.max(0, next - performance.now()));
        const out = await putReview(apis[i]!, saved.id, revision, edited(saved.review, n));
        if (out.status === 200) revision = (out.body as Saved).revision;
        else errors++;
        if (next - started >= WARMUP_SECONDS * 1000) latencies.push(out.ms);
        next += 1000;
      }
    }),
  );
  return {
    p50: percentile(latencies, 50),
    p99: percentile(latencies, 99),
    count: latencies.length,
    errors,
  };
}

async function saturation(
  apis: Api[],
  own: Saved[],
): Promise<{ perSecond: number; errors: number }> {
  const current = await Promise.all(own.map((s, i) => getReviewVia(apis[i]!, s.id)));
  let count = 0;
  let errors = 0;
  const started = performance.now();
  const end = started + SATURATION_SECONDS * 1000;
  await Promise.all(
    current.map(async (saved, i) => {
      let revision = saved.revision;
      for (let n = 1; performance.now() < end; n++) {
        const out = await putReview(apis[i]!, saved.id, revision, edited(saved.review, 10_000 + n));
        if (out.status === 200) {
          revision = (out.body as Saved).revision;
          count++;
        } else errors++;
      }
    }),
  );
  return { perSecond: count / ((performance.now() - started) / 1000), errors };
}

/** Client i's counter lives in the notes of its own source; the review is shared by all. */
function withCounter(review: Review, client: number, value: number): Review {
  return {
    ...review,
    sources: review.sources.map((s) =>
      s.id === `bench-${client}` ? { ...s, notes: String(value) } : s,
    ),
  };
}

async function oneReview(apis: Api[]): Promise<{ ok: boolean; figure: string }> {
  const api = apis[0]!;
  const base = createDemoReview();
  const shared: Review = {
    ...base,
    sources: [
      ...base.sources,
      ...Array.from({ length: CLIENTS }, (_, i) => ({
        ...base.sources[0]!,
        id: `bench-${i}` as Review["sources"][number]["id"],
        name: `bench source ${i}`,
        notes: "0",
      })),
    ],
  };
  const created = await createReviewVia(api, shared);
  let conflicts = 0;
  const otherStatuses = new Map<number, number>();
  let gaveUp = 0;
  await Promise.all(
    Array.from({ length: CLIENTS }, async (_, client) => {
      const mine = apis[client]!;
      let current = await getReviewVia(mine, created.id);
      for (let value = 1; value <= UPDATES_PER_CLIENT; value++) {
        for (let attempt = 0; ; attempt++) {
          if (attempt >= MAX_ATTEMPTS_PER_UPDATE) {
            gaveUp++;
            return;
          }
          const out = await putReview(
            mine,
            created.id,
            current.revision,
            withCounter(current.review, client, value),
          );
          if (out.status === 200) {
            current = out.body as Saved;
            break;
          }
          if (out.status === 409) {
            conflicts++;
            current = (out.body as { error: { details: { current: Saved } } }).error.details
              .current;
          } else {
            otherStatuses.set(out.status, (otherStatuses.get(out.status) ?? 0) + 1);
            current = await getReviewVia(mine, created.id);
          }
        }
      }
    }),
  );
  const last = await getReviewVia(api, created.id);
  const lost = Array.from({ length: CLIENTS }, (_, i) => i).filter(
    (i) =>
      last.review.sources.find((s) => s.id === `bench-${i}`)?.notes !== String(UPDATES_PER_CLIENT),
  );
  const expectedRevision = 1 + CLIENTS * UPDATES_PER_CLIENT;
  const others = [...otherStatuses].map(([s, n]) => `${n}× ${s}`).join(", ");
  const ok =
    lost.length === 0 &&
    otherStatuses.size === 0 &&
    gaveUp === 0 &&
    last.revision === expectedRevision;
  return {
    ok,
    figure: `${CLIENTS * UPDATES_PER_CLIENT} saves landed as revision ${last.revision} (expected ${expectedRevision}), ${conflicts} lost races all answered 409${others ? `; other answers: ${others}` : ""}; ${lost.length} counters lost${gaveUp ? `; ${gaveUp} clients gave up` : ""}`,
  };
}

async function measure(label: string, env: Record<string, string>): Promise<BenchResult[]> {
  const names = {
    load: `saves (${label}): ${CLIENTS} reviewers saving their own review once a second, ${LOAD_SECONDS} s`,
    saturation: `saves (${label}): ${CLIENTS} reviewers saving back to back, ${SATURATION_SECONDS} s`,
    one: `saves (${label}): ${CLIENTS} reviewers on one review, ${UPDATES_PER_CLIENT} updates each`,
  };
  const goals = {
    load: `p99 < ${P99_GOAL_MS} ms`,
    saturation: `≥ ${CLIENTS} saves/s (the steady load's rate)`,
    one: "every lost race 409, no update lost",
  };
  let server: AppServer | undefined;
  try {
    server = await startAppServer(env);
    // Each reviewer signs in once and saves through its session, as the workbench's pages do.
    const apis = await Promise.all(Array.from({ length: CLIENTS }, () => sessionApi(server!)));
    const own = await Promise.all(
      apis.map((api, i) =>
        createReviewVia(api, { ...createDemoReview(), title: `bench reviewer ${i}` }),
      ),
    );
    const load = await steadyLoad(apis, own);
    const sat = await saturation(apis, own);
    const one = await oneReview(apis);
    return [
      {
        name: names.load,
        // The load average: the app and its fifty clients share the machine with whatever else runs.
        figure: `p99 ${load.p99.toFixed(1)} ms, p50 ${load.p50.toFixed(1)} ms over ${load.count} saves${load.errors ? `; ${load.errors} failed` : ""} (load average ${loadavg()[0]!.toFixed(1)} on ${availableParallelism()} cores)`,
        goal: goals.load,
        pass: load.p99 < P99_GOAL_MS && load.errors === 0,
      },
      {
        name: names.saturation,
        figure: `${sat.perSecond.toFixed(0)} saves/s${sat.errors ? `; ${sat.errors} failed` : ""}`,
        goal: goals.saturation,
        pass: sat.perSecond >= CLIENTS && sat.errors === 0,
      },
      { name: names.one, figure: one.figure, goal: goals.one, pass: one.ok },
    ];
  } catch (error) {
    const why = `not measured: ${(error as Error).message}${server ? `; server said: ${server.stderrTail()}` : ""}`;
    return (["load", "saturation", "one"] as const).map((k) => ({
      name: names[k],
      figure: why,
      goal: goals[k],
      pass: false,
    }));
  } finally {
    await server?.stop();
  }
}

/** Marks the child's line that carries its results, among whatever else it prints. */
const RESULT_PREFIX = "bench-saves-result ";
/** Set in the child: what to measure, as JSON `{ label, env }`. */
const CHILD_ENV = "BENCH_SAVES_CHILD";

/** `measure(label, env)` in a fresh child process (see the module comment). */
async function measureInChild(label: string, env: Record<string, string>): Promise<BenchResult[]> {
  // The same loader flags (tsx) as this process, so the child runs this TypeScript file as it is.
  const child = spawn(process.execPath, [...process.execArgv, fileURLToPath(import.meta.url)], {
    env: { ...process.env, [CHILD_ENV]: JSON.stringify({ label, env }) },
    stdio: ["ignore", "pipe", "inherit"],
  });
  let out = "";
  child.stdout.on("data", (d: Buffer) => {
    out += d.toString();
  });
  const code = await new Promise<number | null>((resolve) => child.once("exit", resolve));
  const lines = out.split("\n");
  const line = lines.find((l) => l.startsWith(RESULT_PREFIX));
  for (const l of lines) if (l !== "" && l !== line) console.log(l);
  if (!line) throw new Error(`the measuring child process exited with code ${code} and no result`);
  return JSON.parse(line.slice(RESULT_PREFIX.length)) as BenchResult[];
}

async function withFreshDatabase<T>(
  fn: (url: string | null, why: string) => Promise<T>,
): Promise<T> {
  const database = `relay_review_bench_${randomBytes(6).toString("hex")}`;
  const admin = new pg.Client({ connectionString: ADMIN_URL });
  try {
    await admin.connect();
    await admin.query(`CREATE DATABASE "${database}"`);
  } catch (error) {
    await admin.end().catch(() => undefined);
    return fn(
      null,
      `PostgreSQL at ${new URL(ADMIN_URL).host} is unreachable (${(error as Error).message})`,
    );
  }
  try {
    const url = new URL(ADMIN_URL);
    url.pathname = `/${database}`;
    return await fn(url.toString(), "");
  } finally {
    await admin.query(`DROP DATABASE IF EXISTS "${database}" WITH (FORCE)`).catch(() => undefined);
    await admin.end();
  }
}

export async function run(): Promise<BenchResult[]> {
  const unavailable = appServerUnavailable();
  if (unavailable)
    return [
      {
        name: "saves",
        figure: `not measured: ${unavailable}`,
        goal: "the suite runs",
        pass: false,
      },
    ];
  const embedded = await measureInChild("embedded store", {});
  const postgres = await withFreshDatabase(async (url, why) =>
    url
      ? measureInChild("PostgreSQL", { DATABASE_URL: url })
      : [
          {
            name: "saves (PostgreSQL)",
            figure: `not measured: ${why}`,
            goal: "the suite runs",
            pass: false,
          },
        ],
  );
  return [...embedded, ...postgres];
}

// The child `measureInChild` starts: measure one store and print the results on one line.
if (process.env[CHILD_ENV] && import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  const { label, env } = JSON.parse(process.env[CHILD_ENV]) as {
    label: string;
    env: Record<string, string>;
  };
  console.log(`${RESULT_PREFIX}${JSON.stringify(await measure(label, env))}`);
}
