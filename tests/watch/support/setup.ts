/**
 * A review with `count` HTTP servers on the farm, each inspected once and pinned (through the
 * functions the Inspect and Pin buttons call), and an approval of the first in the on-call agent,
 * so a change to the first server's surface blocks it and makes that decision stale.
 */
import { DecideRequestSchema } from "@/lib/decisions/api";
import type { ReviewId, ServerId } from "@/lib/ids";
import { createDemoReview } from "@/lib/review/demo";
import type { RelayServer } from "@/lib/review/schema";
import type { Db } from "@/lib/store/db";
import { createReview, getReview } from "@/lib/store/reviews";
import { decide, findingsNow } from "@/lib/workbench/decisions";
import { prepareInspection, runInspection } from "@/lib/workbench/inspect-run";
import { pinLatest } from "@/lib/workbench/surface";
import type { Farm } from "./farm";

export const serverName = (i: number) => `watched-${String(i).padStart(2, "0")}`;

export async function pinnedReview(
  db: Db,
  farm: Farm,
  count: number,
): Promise<{ reviewId: ReviewId; serverIds: ServerId[] }> {
  const review = createDemoReview();
  const added: RelayServer[] = Array.from({ length: count }, (_, i) => ({
    id: serverName(i) as ServerId,
    name: serverName(i),
    transport: { kind: "http", url: farm.url(serverName(i)), headerEnv: {} },
    imageDigest: null,
    declaredTools: [],
    pin: null,
    notes: "",
    elicitationUrlHosts: [],
  }));
  review.servers.push(...added);
  review.agents
    .find((a) => a.id === "docs-agent")!
    .tools.push({ serverId: added[0]!.id, tool: "read_page" });
  const record = await createReview(db, review, "owner");
  const reviewId = record.id;
  for (const s of added) {
    const prepared = await prepareInspection(db, reviewId, s.id);
    if (!prepared.ok) throw new Error(`cannot inspect ${s.id}: ${prepared.error.message}`);
    const result = await runInspection(db, prepared, {});
    if (!result.ok) throw new Error(`inspection of ${s.id} failed: ${result.error.message}`);
    await pinLatest(db, reviewId, s.id, { reason: "first review", author: "owner" });
  }
  const latest = (await getReview(db, reviewId))!;
  // Two read_page tools in one agent are shadowing (high): the approval accepts it, as a reviewer would have to.
  const open = (await findingsNow(db, reviewId, latest.review)).of(added[0]!.id, "docs-agent");
  await decide(
    db,
    reviewId,
    DecideRequestSchema.parse({
      baseRevision: latest.revision,
      serverId: added[0]!.id,
      agentId: "docs-agent",
      verdict: "approved",
      reviewer: "Dana",
      rationale: "read-only reference server",
      acceptances: open
        .filter((f) => f.severity === "critical" || f.severity === "high")
        .map((f) => ({ findingId: f.id, owner: "Dana", why: "the two read_page tools are ours" })),
    }),
  );
  return { reviewId, serverIds: added.map((s) => s.id) };
}
