import { expect, test } from "vitest";
import { idNamesOf, withNames } from "@/lib/events/names";
import { ReviewSchema } from "@/lib/review/schema";

const review = ReviewSchema.parse({
  schemaVersion: 2,
  title: "GitHub in the coding assistant",
  servers: [
    {
      id: "srv-0a1b2c3d4e5f",
      name: "github",
      transport: { kind: "manual" },
    },
  ],
  agents: [{ id: "agent-99aa88bb77cc", name: "coding assistant" }],
});

test("ids in an event's line read as the names a reviewer knows", () => {
  const names = idNamesOf([{ id: "rev-1", review }]);
  expect(
    withNames("decision for srv-0a1b2c3d4e5f into agent-99aa88bb77cc is stale (rev-1)", names),
  ).toBe("decision for github into coding assistant is stale (GitHub in the coding assistant)");
  // Only whole ids: a longer token that starts with a known id is left alone; unknown ids stay.
  expect(withNames("srv-0a1b2c3d4e5f0 and srv-ffffffffffff", names)).toBe(
    "srv-0a1b2c3d4e5f0 and srv-ffffffffffff",
  );
  expect(withNames("nothing here", new Map())).toBe("nothing here");
});
