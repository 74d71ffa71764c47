/**
 * An owner's edit that makes a decision stale (adding a sink to the agent's tool set) is logged as
 * the scheduled re-inspection logs it, `decision.stale`, and a webhook subscribed to the kind gets
 * it, on every store backend. An edit that changes nothing the decision rests on logs nothing, and
 * saving the same stale state again adds no second entry.
 */
import http from "node:http";
import type { AddressInfo } from "node:net";
import { randomBytes } from "node:crypto";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { DecideRequestSchema } from "@/lib/decisions/api";
import { createDemoReview } from "@/lib/review/demo";
import { openStore, type Store } from "@/lib/store/db";
import { listEvents } from "@/lib/store/events";
import { createReview, getReview } from "@/lib/store/reviews";
import { claimDueDeliveries } from "@/lib/store/webhooks";
import { DEFAULT_WATCH_SETTINGS } from "@/lib/watch/schedule";
import { CreateWebhookRequestSchema } from "@/lib/watch/webhook-api";
import { attemptDelivery } from "@/lib/watch/node/deliver";
import { addWebhook } from "@/lib/watch/node/webhooks";
import { decide } from "@/lib/workbench/decisions";
import { saveOwnerEdit } from "@/lib/workbench/stale-events";
import { BACKENDS } from "@/tests/store/support/backends";

const key = randomBytes(32);

describe.each(BACKENDS)("an owner edit that makes a decision stale, on $name", (backend) => {
  let store: Store;
  let drop: () => Promise<void>;
  let receiver: http.Server;
  let base: string;
  const received: string[] = [];

  beforeAll(async () => {
    process.env.RELAY_REVIEW_SECRET_KEY = key.toString("base64");
    const provisioned = await backend.provision();
    drop = provisioned.drop;
    store = await openStore({ target: provisioned.target });
    receiver = http.createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on("data", (c: Buffer) => chunks.push(c));
      req.on("end", () => {
        received.push(Buffer.concat(chunks).toString("utf8"));
        res.writeHead(204).end();
      });
    });
    await new Promise<void>((r) => receiver.listen(0, "127.0.0.1", r));
    base = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}`;
    // The receiver's port, granted the way an operator would (loopback needs its port named).
    process.env.RELAY_REVIEW_EGRESS_ALLOW = `127.0.0.1:${(receiver.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    await store?.close();
    await new Promise((r) => receiver?.close(r));
    await drop?.();
    delete process.env.RELAY_REVIEW_SECRET_KEY;
    delete process.env.RELAY_REVIEW_EGRESS_ALLOW;
  });

  test("adding trigger_deploy to the approved agent logs decision.stale by the owner, and the webhook delivers it", async () => {
    const db = store.db;
    await addWebhook(
      db,
      CreateWebhookRequestSchema.parse({ label: "ops", url: `${base}/hook`, format: "generic" }),
    );
    const created = await createReview(db, createDemoReview(), "owner");
    const decided = await decide(
      db,
      created.id,
      DecideRequestSchema.parse({
        baseRevision: created.revision,
        serverId: "knowledge-mcp",
        agentId: "docs-agent",
        verdict: "approved",
        reviewer: "Dana",
        rationale: "read-only reference server for the documentation agent",
      }),
    );
    const staleEvents = async () =>
      (await listEvents(db, "owner", { reviewId: created.id, kind: "decision.stale" })).events;

    // A note changes nothing the decision rests on: nothing is logged.
    let record = (await getReview(db, created.id))!;
    record = await saveOwnerEdit(
      db,
      created.id,
      record.revision,
      { ...record.review, summary: "second look" },
      "owner",
    );
    expect(await staleEvents()).toEqual([]);

    const withSink = structuredClone(record.review);
    withSink.agents
      .find((a) => a.id === "docs-agent")!
      .tools.push({ serverId: "deploy-tools" as never, tool: "trigger_deploy" });
    record = await saveOwnerEdit(db, created.id, record.revision, withSink, "owner");
    const events = await staleEvents();
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({
      kind: "decision.stale",
      actor: "owner",
      serverId: "knowledge-mcp",
      detail: { decisionId: decided.decision.decision.id, agentId: "docs-agent" },
    });
    expect(events[0]!.summary).toContain("added trigger_deploy on deploy-tools");
    expect(events[0]!.summary).toContain("neither removes nor accepts");

    // Saving again with the same stale state adds no second entry.
    await saveOwnerEdit(
      db,
      created.id,
      record.revision,
      { ...record.review, summary: "third look" },
      "owner",
    );
    expect(await staleEvents()).toHaveLength(1);

    const claimed = await claimDueDeliveries(db, { limit: 10, leaseSeconds: 30 });
    const forStale = claimed.filter((d) => d.eventSeq === events[0]!.seq);
    expect(forStale).toHaveLength(1);
    for (const d of forStale) await attemptDelivery(db, d, DEFAULT_WATCH_SETTINGS);
    const bodies = received.map((b) => JSON.parse(b) as { event: { kind: string; id: string } });
    expect(bodies.map((b) => b.event.kind)).toContain("decision.stale");
    expect(bodies.find((b) => b.event.kind === "decision.stale")!.event.id).toBe(events[0]!.id);
  }, 180_000);
});
