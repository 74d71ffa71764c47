import type { Metadata } from "next";
import { PeoplePanel } from "@/components/auth/people-panel";
import { HydrationGate } from "@/components/ui/hydration-gate";
import { oidcEnabled } from "@/lib/auth/oidc";

export const metadata: Metadata = { title: "People — Relay Review" };

/** Admins only (lib/auth/roles.ts): who has signed in, and the role each holds. */
export default function PeoplePage() {
  return (
    <main className="page">
      <div className="page-head">
        <div>
          <h1>People</h1>
          <p className="muted">
            Everyone who has signed in through the identity provider, by name, with the groups it
            sent at their last sign-in. A role set here wins over the one their groups give, until
            it is set back to &ldquo;from groups&rdquo;. Each change is logged on Changes.
          </p>
        </div>
      </div>
      {oidcEnabled() ? (
        <HydrationGate>
          <PeoplePanel />
        </HydrationGate>
      ) : (
        <div className="card empty" data-testid="people-no-idp">
          No identity provider is configured, so the owner token is the only way in. Set
          RELAY_REVIEW_OIDC_ISSUER and its companions (docs/people.md) to let people sign in by
          name.
        </div>
      )}
    </main>
  );
}
