import { describe, expect, test } from "vitest";
import { displayNameOf } from "@/lib/auth/people";
import { controlCharacterIssue, SampleEvidenceSchema } from "@/lib/review/schema";

describe("a person's name from the identity provider's claims", () => {
  test("the first present claim of name, preferred_username, email, sub; else 'unnamed person'", () => {
    expect(displayNameOf({ name: " Alice Ng ", email: "a@example.com" })).toBe("Alice Ng");
    expect(displayNameOf({ name: "  ", preferred_username: "alice" })).toBe("alice");
    expect(displayNameOf({ email: "a@example.com", sub: "123" })).toBe("a@example.com");
    expect(displayNameOf({ sub: "123" })).toBe("123");
    expect(displayNameOf({ name: 7 })).toBe("unnamed person");
  });

  test("white space reads as one space and every hidden character as its marker", () => {
    // A line break would start what reads as another entry; U+202E turns the rest around.
    expect(displayNameOf({ name: "Alice\n\tNg" })).toBe("Alice Ng");
    expect(displayNameOf({ name: "Mallory\u202Eecila" })).toBe("Mallory⟨U+202E⟩ecila");
    expect(displayNameOf({ name: "Bo\u200Bb\u0007" })).toBe("Bo⟨U+200B⟩b⟨U+0007⟩");
  });

  test("the name is one the review's records accept: no control character, at most 120 characters", () => {
    for (const name of [
      "Eve\u0000\u001b[31m",
      "x\u2028y\u2029z\u0085",
      "😀".repeat(100),
      "a".repeat(500),
    ]) {
      const shown = displayNameOf({ name });
      expect(controlCharacterIssue(shown), JSON.stringify(name)).toBeNull();
      expect(shown.length).toBeLessThanOrEqual(120);
      expect(() =>
        SampleEvidenceSchema.parse({ at: new Date(0).toISOString(), by: shown, kind: "no_text" }),
      ).not.toThrow();
    }
    // Cut between whole characters: never half of a surrogate pair.
    expect(displayNameOf({ name: "a" + "😀".repeat(100) })).toBe("a" + "😀".repeat(59));
  });
});
