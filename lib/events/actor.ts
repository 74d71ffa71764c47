/**
 * Who or what caused an event: the actor every entry of the audit log names. Pure. The kind says
 * what sort of principal it was and the id which one, so "the owner token" (the bootstrap and
 * break-glass credential) is never confused with a person, nor the drift watch with either.
 */
import { z } from "zod";

export const ACTOR_KINDS = {
  /** The workbench's owner token, by bearer or by a session it signed in: break-glass, every use logged. */
  owner_token: "owner token",
  /** A signed-in person; `id` is their issuer and subject. */
  person: "person",
  /** The drift watch: scheduled re-inspections and what they find. */
  schedule: "drift watch",
  /** Someone holding a read-only share link; `id` is the link's id (never its token). */
  share_link: "share link",
  /** `relay-review gate` when it reports to the workbench. */
  gate: "gate",
  /** Rows written before actors had kinds whose word was neither "owner" nor "schedule". */
  unknown: "unknown",
} as const;

export type ActorKind = keyof typeof ACTOR_KINDS;
export const ActorKindSchema = z.enum(Object.keys(ACTOR_KINDS) as [ActorKind, ...ActorKind[]]);

export interface Actor {
  kind: ActorKind;
  id: string;
}

export const OWNER_TOKEN_ACTOR: Actor = { kind: "owner_token", id: "owner" };
export const SCHEDULE_ACTOR_REF: Actor = { kind: "schedule", id: "schedule" };

export const shareLinkActor = (linkId: string): Actor => ({ kind: "share_link", id: linkId });

/**
 * The actor for an event: an `Actor` as given, or one of the words events were logged with before
 * actors had kinds ("owner" is the owner token, "schedule" the drift watch), or `kind:id`. Any other
 * string is a programming error, refused rather than logged under a kind it may not be.
 */
export function actorOf(value: string | Actor): Actor {
  if (typeof value !== "string") return value;
  if (value === "owner") return OWNER_TOKEN_ACTOR;
  if (value === "schedule") return SCHEDULE_ACTOR_REF;
  const colon = value.indexOf(":");
  const kind = colon > 0 ? value.slice(0, colon) : "";
  if (colon > 0 && kind in ACTOR_KINDS && kind !== "unknown" && value.length > colon + 1)
    return { kind: kind as ActorKind, id: value.slice(colon + 1) };
  throw new TypeError(
    `an event's actor must be "owner", "schedule", "<kind>:<id>" or an Actor, not ${JSON.stringify(value)}`,
  );
}

/** How the log shows an actor: "owner token", "drift watch", "share link shl-…", "person <id>". */
export function describeActor(kind: string, id: string): string {
  const label = kind in ACTOR_KINDS ? ACTOR_KINDS[kind as ActorKind] : kind;
  if (kind === "owner_token" || kind === "schedule" || id === "" || id === kind) return label;
  return `${label} ${id}`;
}
