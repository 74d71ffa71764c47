import { createServer, type Server } from "node:http";
import type { LookupAddress } from "node:dns";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { parseEgressAllow, type EgressPolicy } from "@/lib/mcp/egress";
import { checkedLookup, pinnedEgressFetch, type ResolveAll } from "./egress-fetch";

const policy = (text: string): EgressPolicy => {
  const p = parseEgressAllow(text);
  if (!p.ok) throw new Error(p.message);
  return p.policy;
};

/** A resolver that answers each call with the next answer: a rebinding name. */
function rebinding(...answers: string[][]): ResolveAll {
  let call = 0;
  return (_host, _options, callback) => {
    const answer = answers[Math.min(call++, answers.length - 1)]!;
    callback(
      null,
      answer.map((address): LookupAddress => ({ address, family: address.includes(":") ? 6 : 4 })),
    );
  };
}

const lookupOnce = (lookup: ReturnType<typeof checkedLookup>, host: string, all: boolean) =>
  new Promise<{ error: NodeJS.ErrnoException | null; result: unknown }>((resolve) => {
    lookup(host, { all }, (error: NodeJS.ErrnoException | null, result: unknown) =>
      resolve({ error, result }),
    );
  });

describe("checkedLookup", () => {
  test("a name that rebinds to the metadata address after passing once is refused at connect", async () => {
    const lookup = checkedLookup(
      policy("10.0.0.0/8"),
      443,
      rebinding(["10.1.2.3"], ["169.254.169.254"]),
    );
    expect((await lookupOnce(lookup, "tracker.internal", true)).error).toBeNull();
    const second = await lookupOnce(lookup, "tracker.internal", true);
    expect(second.error?.code).toBe("EEGRESSREFUSED");
    expect(second.error?.message).toContain("169.254.169.254 (linkLocal)");
  });

  test.each([
    { answer: ["10.1.2.3", "192.168.0.5"], refused: "192.168.0.5 (private)" },
    { answer: ["::ffff:169.254.169.254"], refused: "::ffff:169.254.169.254 (linkLocal)" },
    { answer: [], refused: "no address" },
  ])("every address must pass: $answer", async ({ answer, refused }) => {
    const { error } = await lookupOnce(
      checkedLookup(policy("10.0.0.0/8"), 443, rebinding(answer)),
      "mixed.example",
      true,
    );
    expect(error?.message).toContain(refused);
  });

  test("allowed addresses are handed to the socket, one or all as it asked", async () => {
    const lookup = checkedLookup(policy("10.0.0.0/8"), 443, rebinding(["10.0.0.7", "10.0.0.8"]));
    expect((await lookupOnce(lookup, "ok.internal", true)).result).toEqual([
      { address: "10.0.0.7", family: 4 },
      { address: "10.0.0.8", family: 4 },
    ]);
    const one = await new Promise<unknown[]>((resolve) =>
      lookup("ok.internal", {}, (...args: unknown[]) => resolve(args)),
    );
    expect(one).toEqual([null, "10.0.0.7", 4]);
  });

  test("a name on the allowlist passes whatever it resolves to", async () => {
    const { error } = await lookupOnce(
      checkedLookup(policy("mcp.corp.example"), 443, rebinding(["192.168.1.1"])),
      "mcp.corp.example",
      true,
    );
    expect(error).toBeNull();
  });
});

describe("pinnedEgressFetch, over a real socket", () => {
  let server: Server;
  let port: number;
  beforeAll(async () => {
    server = createServer((req, res) => {
      // /hop sends the client on to another port of the same host (the workbench's own, say).
      if (req.url?.startsWith("/hop?to=")) {
        res.writeHead(302, { location: `http://127.0.0.1:${req.url.slice(8)}/` });
        return res.end();
      }
      res.end("reached");
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    port = (server.address() as AddressInfo).port;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  test("reaches a server whose address the policy allows", async () => {
    const res = await pinnedEgressFetch(
      policy(`127.0.0.1:${port}`),
      rebinding(["127.0.0.1"]),
    )(new URL(`http://relay.test:${port}/`));
    expect(await res.text()).toBe("reached");
  });

  test("a loopback range without a port admits no loopback port at connect time (issue 28, finding 16)", async () => {
    for (const entry of ["127.0.0.0/8", "0.0.0.0/0", "relay.test"]) {
      const fetchOnce = pinnedEgressFetch(policy(entry), rebinding(["127.0.0.1"]));
      for (const url of [`http://relay.test:${port}/`, `http://127.0.0.1:${port}/`]) {
        const error = await fetchOnce(new URL(url)).then(
          () => null,
          (e: unknown) => e as Error & { cause?: Error },
        );
        expect(error?.cause?.message, `${entry} ${url}`).toContain(
          `127.0.0.1 (loopback) port ${port}`,
        );
      }
    }
  });

  test("an entry with a port admits that port only, also for a redirect at connect time", async () => {
    const other = createServer((_req, res) => res.end("the other port"));
    await new Promise<void>((resolve) => other.listen(0, "127.0.0.1", resolve));
    const otherPort = (other.address() as AddressInfo).port;
    try {
      const fetchOnce = pinnedEgressFetch(policy(`127.0.0.1:${port}`));
      expect(await (await fetchOnce(new URL(`http://127.0.0.1:${port}/`))).text()).toBe("reached");
      const error = await fetchOnce(new URL(`http://127.0.0.1:${port}/hop?to=${otherPort}`)).then(
        () => null,
        (e: unknown) => e as Error & { cause?: Error },
      );
      expect(error?.cause?.message).toContain(
        `egress refused when connecting: 127.0.0.1 (loopback) port ${otherPort} is outside`,
      );
    } finally {
      await new Promise<void>((resolve) => other.close(() => resolve()));
    }
  });

  test("never connects when the name resolves outside the policy at connect time", async () => {
    const fetchOnce = pinnedEgressFetch(policy("10.0.0.0/8"), rebinding(["127.0.0.1"]));
    const error = await fetchOnce(new URL(`http://relay.test:${port}/`)).then(
      () => null,
      (e: unknown) => e as Error & { cause?: Error },
    );
    expect(error?.cause?.message).toContain(
      "egress refused when connecting: relay.test now resolves to 127.0.0.1 (loopback)",
    );
  });
});
