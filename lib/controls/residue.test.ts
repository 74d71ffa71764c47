import { describe, expect, it } from "vitest";
import { composeResidue, type ResidueInput } from "./residue";

const all: ResidueInput = {
  credentialPresent: true,
  egressPresent: true,
  separationInPlace: true,
  sinksSharingASession: [],
  approvalPresent: true,
  caveats: [],
};

describe("[control:separation] [control:egress] [control:credential] [control:approval] residue composition", () => {
  it("with all four present it is the seed's sentence", () => {
    expect(composeResidue(all).text).toBe(
      "a payload already in the source, reaching the tools that stayed in the session, in front of a person reading a sentence the payload helped write",
    );
  });

  it("each part is present only when its control is", () => {
    const none = composeResidue({
      credentialPresent: false,
      egressPresent: false,
      separationInPlace: false,
      sinksSharingASession: ["trigger_deploy"],
      approvalPresent: false,
      caveats: [],
    });
    expect(none.clauses.every((c) => !c.present && c.controlIds.length === 0)).toBe(true);
    expect(none.text).not.toContain("already in the source");
    expect(none.text).not.toContain("stayed in the session");
    expect(none.text).not.toContain("in front of a person");
  });

  it("separation changes the statement", () => {
    const shared = composeResidue({
      ...all,
      separationInPlace: false,
      sinksSharingASession: ["trigger_deploy", "share_file", "a", "b"],
    });
    expect(shared.text).toContain(
      "reaching every tool in the session, a, b, share_file and 1 more among them",
    );
    expect(shared.text).not.toBe(composeResidue(all).text);
  });

  it("a review with fewer controls never reads shorter than one with more", () => {
    expect(composeResidue({ ...all, egressPresent: false }).text.length).toBeGreaterThan(
      composeResidue(all).text.length,
    );
    expect(composeResidue({ ...all, credentialPresent: false }).text.length).toBeGreaterThan(
      composeResidue(all).text.length,
    );
  });
});
