import { expect, test } from "vitest";
import { upsertById } from "@/lib/review/edit";

test("upsertById replaces the entry with the same id in place, or appends, without mutating", () => {
  const items = [{ id: "a", n: 1 }, { id: "b", n: 2 }];
  expect(upsertById(items, { id: "a", n: 9 })).toEqual([{ id: "a", n: 9 }, { id: "b", n: 2 }]);
  expect(upsertById(items, { id: "c", n: 3 })).toEqual([...items, { id: "c", n: 3 }]);
  expect(items).toEqual([{ id: "a", n: 1 }, { id: "b", n: 2 }]);
});
