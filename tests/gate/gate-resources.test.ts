/**
 * Finding 4 of issue 28, through the real gate: a record approves resources by exact URI and
 * resource templates by strict RFC 6570 match, and keeps the two apart. The server behind it
 * (tests/gate/fixtures/notes-server.ts) lists a *static* resource `notes://{+rest}` and a template
 * `notes://items/{id}`, and answers any URI it is asked for, payroll included.
 */
import path from "node:path";
import { writeFileSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { signRecord, type DecisionRecord } from "@/lib/decisions/record";
import { ReviewSchema } from "@/lib/review/schema";
import { ROOT, connectThroughGate, inspectStdio, signedRecord, type Signed } from "./fixtures";

const NOTES_ARGS = ["--import", "tsx", path.join(ROOT, "tests/gate/fixtures/notes-server.ts")];

function notesReview() {
  return ReviewSchema.parse({
    schemaVersion: 2,
    title: "notes fixture",
    servers: [
      {
        id: "notes",
        name: "notes",
        transport: { kind: "stdio", command: "node", args: NOTES_ARGS },
      },
    ],
    agents: [
      {
        id: "notes-agent",
        name: "notes agent",
        tools: [{ serverId: "notes", tool: "list_notes" }],
      },
    ],
  });
}

type Refusal = { code: number; message: string } | null;
type Session = Awaited<ReturnType<typeof connectThroughGate>>;
const read = (session: Session, uri: string): Promise<string | Refusal> =>
  session.client.readResource({ uri }).then(
    (r) => JSON.stringify(r.contents),
    (e: unknown) => e as Refusal,
  );

/** URIs `notes://items/{id}` must not admit: each would leave the one segment `{id}` names. */
const LOOSE = [
  "notes://items/42?x=1",
  "notes://items/42#frag",
  "notes://items/a/b",
  "notes://items/..%2Fprivate",
  "notes://items/a%2Fb",
  "notes://items/%2E%2E",
  "notes://items/..",
  "notes://items/a\nb",
  "notes://items/a%0Ab",
  "notes://items/",
  "notes://items/%252F",
];

/** The record as an older build wrote it: templates and URIs in one list, re-signed. */
function asOlderRecord(s: Signed, keepItemHashes: boolean): string {
  const r = structuredClone(s.record) as DecisionRecord & { signature?: unknown };
  const surface = r.registration!.surface;
  surface.resources = [...surface.resources, ...(surface.resourceTemplates ?? [])].sort();
  delete surface.resourceTemplates;
  if (!keepItemHashes) delete (r.registration as { item_sha256?: unknown }).item_sha256;
  const { signature: _signature, ...unsigned } = r;
  const file = path.join(s.dir, `older-${keepItemHashes}.json`);
  writeFileSync(file, JSON.stringify(signRecord(unsigned, s.privateKey)));
  return file;
}

let signed: Signed;
beforeAll(async () => {
  signed = signedRecord(notesReview(), "notes", "notes-agent", await inspectStdio(NOTES_ARGS));
}, 120_000);

describe("a record names resources and resource templates apart", { timeout: 180_000 }, () => {
  let session: Session;
  beforeAll(async () => {
    session = await connectThroughGate(
      ["--record", signed.recordPath, "--public-key", signed.publicKeyPath],
      NOTES_ARGS,
    );
  }, 120_000);
  afterAll(async () => session?.close());

  test("the record keeps the static resource and the template in separate fields", () => {
    const surface = signed.record.registration!.surface as Record<string, unknown>;
    expect(surface.resources).toEqual(["notes://{+rest}"]);
    expect(surface.resourceTemplates).toEqual(["notes://items/{id}"]);
  });

  test("a static resource that looks like a template admits only its own URI", async () => {
    const payroll = await read(session, "notes://private/payroll.xlsx");
    expect(payroll).toMatchObject({ code: -32602 });
    expect((payroll as { message: string }).message).toContain(
      'resource "notes://private/payroll.xlsx" is not approved',
    );
    expect(await read(session, "notes://{+rest}")).toContain("note at notes://{+rest}");
  });

  test("a template admits one segment of unreserved or pct-encoded characters, nothing more", async () => {
    expect(await read(session, "notes://items/42")).toContain("note at notes://items/42");
    expect(await read(session, "notes://items/caf%C3%A9")).toContain("note at");
    for (const uri of LOOSE) {
      const got = await read(session, uri);
      expect(got, uri).toMatchObject({ code: -32602 });
    }
  });
});

describe("older records, written before the fields were apart", { timeout: 180_000 }, () => {
  test("still verify; a URI with braces is an exact URI, templates come from the signed item hashes", async () => {
    const withHashes = await connectThroughGate(
      ["--record", asOlderRecord(signed, true), "--public-key", signed.publicKeyPath],
      NOTES_ARGS,
    );
    try {
      expect(await read(withHashes, "notes://private/payroll.xlsx")).toMatchObject({
        code: -32602,
      });
      expect(await read(withHashes, "notes://{+rest}")).toContain("note at");
      expect(await read(withHashes, "notes://items/42")).toContain("note at");
      expect(await read(withHashes, "notes://items/..%2Fprivate")).toMatchObject({
        code: -32602,
      });
    } finally {
      await withHashes.close();
    }
    // Without item hashes nothing says which entries were templates: each is an exact URI.
    const bare = await connectThroughGate(
      ["--record", asOlderRecord(signed, false), "--public-key", signed.publicKeyPath],
      NOTES_ARGS,
    );
    try {
      expect(await read(bare, "notes://private/payroll.xlsx")).toMatchObject({ code: -32602 });
      expect(await read(bare, "notes://items/42")).toMatchObject({ code: -32602 });
      expect(await read(bare, "notes://items/{id}")).toContain("note at");
    } finally {
      await bare.close();
    }
  });
});
