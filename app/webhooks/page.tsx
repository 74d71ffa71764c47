import type { Metadata } from "next";
import { WebhooksPanel } from "@/components/webhooks/webhooks-panel";
import { HydrationGate } from "@/components/ui/hydration-gate";

export const metadata: Metadata = { title: "Webhooks — Relay Review" };

export default function WebhooksPage() {
  return (
    <main className="page">
      <div className="page-head">
        <div>
          <h1>Webhooks</h1>
          <p className="muted">
            Where the workbench announces what the scheduled re-inspection finds: a generic JSON
            payload signed with HMAC-SHA256 (see docs/webhooks.md to verify it), or a Slack incoming
            webhook. Each delivery is logged with every attempt&apos;s status.
          </p>
        </div>
      </div>
      <HydrationGate>
        <WebhooksPanel />
      </HydrationGate>
    </main>
  );
}
