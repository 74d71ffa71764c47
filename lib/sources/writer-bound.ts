/**
 * The writer bound of an input source: who is *allowed* to write into it, not how many did.
 *
 * Rules (from the seed, docs/seed/; docs/analysis.md § Rules):
 * - a source that fetches linked external pages is writable by anyone with a web server;
 * - open self-service signup makes registered accounts a floor, and the bound everyone with an email address;
 * - otherwise the bound is the count of accounts permitted to write;
 * - activity (accounts that wrote last year) is a usage fact, never part of the bound;
 * - the smallest number of accounts an attack needs is one.
 */
import type { InputSource, WriterPopulation } from "@/lib/review/schema";

/** An attacker needs one account, not a typical or an active one. */
export const MIN_ACCOUNTS_AN_ATTACK_NEEDS = 1;

export type WriterBound =
  | { kind: "anyone_with_a_web_server"; label: string; floor: number }
  | { kind: "everyone_with_an_email_address"; label: string; floor: number }
  | { kind: "counted"; label: string; count: number };

export type UsageFact = { label: string; ratio: number | null; note: string };

export type WriterBoundResult = {
  bound: WriterBound;
  /** True when anyone outside the organisation's employees may write: the source is untrusted input. */
  reachesOutsideBoundary: boolean;
  /** Why the source is, or is not, outside the boundary, in the reviewer's words. */
  reasons: string[];
  minAccountsAnAttackNeeds: number;
  usage: UsageFact | null;
};

const fmt = (n: number) => n.toLocaleString("en-US");

/** The accounts known to be allowed to write: internal (contractors and partners among them) plus external. */
export function registeredWriters(p: WriterPopulation): number {
  return p.internalAccounts + p.externalAccounts;
}

export function writerBound(p: WriterPopulation): WriterBoundResult {
  const floor = registeredWriters(p);
  const reasons: string[] = [];
  let bound: WriterBound;
  if (p.fetchesLinkedExternalPages) {
    bound = { kind: "anyone_with_a_web_server", label: "anyone with a web server", floor };
    reasons.push(
      "it fetches linked external pages, so whoever controls a linked page writes into it",
    );
  } else if (p.selfServiceSignupOpen) {
    bound = {
      kind: "everyone_with_an_email_address",
      label: "everyone with an email address",
      floor,
    };
    reasons.push(
      `self-service signup is open, so the ${fmt(floor)} registered accounts are a floor, not a measurement`,
    );
  } else {
    bound = { kind: "counted", label: `${fmt(floor)} accounts`, count: floor };
  }
  if (p.externalAccounts > 0)
    reasons.push(`${fmt(p.externalAccounts)} external accounts may write`);
  if (p.partnerAccounts > 0)
    reasons.push(`${fmt(p.partnerAccounts)} partner-org accounts may write`);
  if (p.contractors > 0) reasons.push(`${fmt(p.contractors)} contractors may write`);
  const reachesOutsideBoundary =
    p.fetchesLinkedExternalPages ||
    p.selfServiceSignupOpen ||
    p.externalAccounts > 0 ||
    p.partnerAccounts > 0 ||
    p.contractors > 0;
  if (!reachesOutsideBoundary) reasons.push("only internal accounts may write");

  const usage: UsageFact | null =
    p.activeLastYear === null
      ? null
      : {
          label: `${fmt(p.activeLastYear)} of ${fmt(p.externalAccounts)} external accounts wrote in the last year`,
          ratio: p.externalAccounts > 0 ? p.activeLastYear / p.externalAccounts : null,
          note: "usage fact: describes how the source is used, not part of the bound",
        };
  return {
    bound,
    reachesOutsideBoundary,
    reasons,
    minAccountsAnAttackNeeds: MIN_ACCOUNTS_AN_ATTACK_NEEDS,
    usage,
  };
}

export function sourceWriterBound(source: InputSource): WriterBoundResult {
  return writerBound(source.writers);
}
