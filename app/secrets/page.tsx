import type { Metadata } from "next";
import { SecretsPanel } from "@/components/secrets/secrets-panel";
import { HydrationGate } from "@/components/ui/hydration-gate";

export const metadata: Metadata = { title: "Secrets — Relay Review" };

export default function SecretsPage() {
  return (
    <main className="page">
      <div className="page-head">
        <div>
          <h1>Secrets</h1>
          <p className="muted">
            Values the servers under review need (tokens, API keys), set by name. A review names
            them; only the workbench, at connect time, holds the value. Nothing here is shown again
            after saving.
          </p>
        </div>
      </div>
      <HydrationGate>
        <SecretsPanel />
      </HydrationGate>
    </main>
  );
}
