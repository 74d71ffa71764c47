import "server-only";
/**
 * The audit log's entry point for what a person or the owner token did in a request: the store
 * (lib/store/events.ts) appends and chains events and knows nothing of who is asking; this names
 * the asker (lib/auth/request-principal.ts), so lib/store never imports lib/auth.
 */
import type { Actor } from "@/lib/events/actor";
import { principalActor } from "@/lib/auth/principal";
import { currentPrincipal } from "@/lib/auth/request-principal";
import type { Db } from "@/lib/store/db";
import { appendEvent, type AppendEventInput } from "@/lib/store/events";

/**
 * Appends an owner action to the audit log. The action itself has already happened: a log write
 * that fails is reported on stderr rather than turning a saved decision into a 500 (the caller
 * would retry and decide twice). The actor is the request's principal (the owner token outside a
 * request, lib/auth/request-principal.ts) unless the caller names another.
 */
export async function auditOwnerAction(
  db: Db,
  input: Omit<AppendEventInput, "actor" | "id"> & { actor?: string | Actor },
): Promise<void> {
  try {
    await appendEvent(db, { actor: principalActor(currentPrincipal()), ...input });
  } catch (error) {
    console.error(
      `[events] could not log ${input.kind}: ${error instanceof Error ? error.message : String(error)}`,
    );
  }
}
