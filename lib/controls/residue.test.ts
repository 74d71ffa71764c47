import { describe, expect, it } from "vitest";
import type { AnalysisModel } from "@/lib/model/model";
import { SEED_CONTROLS } from "@/tests/support/seed-controls";
import { composeResidue } from "./residue";
import type { ControlContext } from "./types";

type Presence = {
  credential: boolean;
  egress: boolean;
  separation: boolean;
  approval: boolean;
  /** Sink names in agents that hold both, for the statement when separation is missing. */
  sinksSharingASession?: string[];
};

/** The statement the seed's four controls compose for the given presence. */
function compose(p: Presence) {
  // Only separation's missing clause reads the model: the sinks of agents holding both.
  const model = {
    agents: [
      {
        returning: [{}],
        sinks: (p.sinksSharingASession ?? []).map((name) => ({ name })),
      },
    ],
  } as unknown as AnalysisModel; // safe: a residue clause reads agents' returning and sinks only
  const ctx = { model } as ControlContext;
  const isPresent = (id: string) => p[id as keyof Presence] === true;
  return composeResidue(
    SEED_CONTROLS.map((c) => c.residue(isPresent, ctx)),
    [],
  );
}

const all: Presence = { credential: true, egress: true, separation: true, approval: true };

describe("[control:separation] [control:egress] [control:credential] [control:approval] residue composition", () => {
  it("with all four present it is the seed's sentence", () => {
    expect(compose(all).text).toBe(
      "a payload already in the source, reaching the tools that stayed in the session, in front of a person reading a sentence the payload helped write",
    );
    expect(compose(all).clauses[0]!.controlIds).toEqual(["credential", "egress"]);
  });

  it("each part is present only when its control is", () => {
    const none = compose({
      credential: false,
      egress: false,
      separation: false,
      approval: false,
      sinksSharingASession: ["trigger_deploy"],
    });
    expect(none.clauses.every((c) => !c.present && c.controlIds.length === 0)).toBe(true);
    expect(none.text).toBe(
      "a payload in the source or on any host the server can fetch from, with a way out to any host, behind a server token that can do more than read, reaching every tool in the session, trigger_deploy among them, with no person in front of the sink call",
    );
  });

  it.each([
    [
      "egress alone",
      { ...all, credential: false },
      "a payload already in the source, behind a server token that can do more than read",
    ],
    [
      "the credential alone",
      { ...all, egress: false },
      "a payload in what the server legitimately reads, or on any host the server can fetch from, with a way out to any host",
    ],
  ] as const)("the source end with %s", (_name, presence, start) => {
    expect(compose(presence).text.startsWith(`${start}, reaching the tools`)).toBe(true);
  });

  it("separation changes the statement", () => {
    const shared = compose({
      ...all,
      separation: false,
      sinksSharingASession: ["trigger_deploy", "share_file", "a", "b"],
    });
    expect(shared.text).toContain(
      "reaching every tool in the session, a, b, share_file and 1 more among them",
    );
    expect(shared.text).not.toBe(compose(all).text);
  });

  it("a review with fewer controls never reads shorter than one with more", () => {
    expect(compose({ ...all, egress: false }).text.length).toBeGreaterThan(
      compose(all).text.length,
    );
    expect(compose({ ...all, credential: false }).text.length).toBeGreaterThan(
      compose(all).text.length,
    );
  });
});
