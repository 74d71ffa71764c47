import { describe, expect, it } from "vitest";
import type { ToolKey } from "@/lib/model/ids";
import { graphLeg, TRIFECTA_LEG_TOOLS_MAX, trifectaLegViews } from "./trifecta";

const keys = (...k: string[]) => k as ToolKey[];

describe("trifecta legs for the graph", () => {
  it("names the tools of each held leg, the private-data leg among them", () => {
    const views = trifectaLegViews({
      untrustedInput: graphLeg({ present: true, tools: keys("gh/get_issue") }),
      privateData: graphLeg({
        present: true,
        tools: keys("gh/get_file_contents", "gh/search_code"),
      }),
      outboundCommunication: graphLeg({ present: true, tools: keys("gh/create_pull_request") }),
    });
    expect(views.map((v) => [v.key, v.present])).toEqual([
      ["untrustedInput", true],
      ["privateData", true],
      ["outboundCommunication", true],
    ]);
    expect(views[1]!.text).toBe(
      "Private data: 2 tools reading private data (get_file_contents, search_code)",
    );
    expect(views[0]!.text).toBe(
      "Untrusted input: 1 tool returning text from outside writers (get_issue)",
    );
  });

  it("says a leg is not held, and bounds the tools it sends", () => {
    const many = keys(...Array.from({ length: 40 }, (_, i) => `s/t${i}`));
    const sent = graphLeg({ present: true, tools: many });
    expect(sent.tools).toHaveLength(TRIFECTA_LEG_TOOLS_MAX);
    expect(sent.count).toBe(40);
    const views = trifectaLegViews({
      untrustedInput: sent,
      privateData: graphLeg({ present: false, tools: [] }),
      outboundCommunication: graphLeg({ present: false, tools: [] }),
    });
    expect(views[0]!.text).toMatch(/^Untrusted input: 40 tools .*t11, and 28 more\)$/);
    expect(views[1]).toMatchObject({ present: false, text: "Private data: not held" });
  });
});
