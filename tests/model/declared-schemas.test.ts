/**
 * Declared tools (a server registered by hand) keep the input and output schemas they were
 * declared with, so role suggestions read their fields as they do an inspected server's (issue 32:
 * the schemas were dropped, and none of the schema signals could work on declared tools).
 */
import { describe, expect, it } from "vitest";
import { buildModel } from "@/lib/model/model";
import { toolListsFromReview } from "@/lib/model/input";
import { createDemoReview } from "@/lib/review/demo";
import { ReviewSchema } from "@/lib/review/schema";

const subscribe = {
  name: "create_subscription",
  description: "Subscribes to change notifications",
  inputSchema: {
    type: "object",
    properties: { notificationUrl: { type: "string" }, resource: { type: "string" } },
  },
  outputSchema: {
    type: "object",
    properties: { id: { type: "string" }, clientSecret: { type: "string" } },
  },
};

function reviewWith(tool: object) {
  const review = createDemoReview();
  const [first, ...rest] = review.servers;
  // Through JSON and the schema, as a stored revision is read back.
  return ReviewSchema.parse(
    JSON.parse(
      JSON.stringify({
        ...review,
        servers: [{ ...first!, declaredTools: [...first!.declaredTools, tool] }, ...rest],
      }),
    ),
  );
}

describe("declared tools", () => {
  it("keep inputSchema and outputSchema through the review schema and into the tool lists", () => {
    const review = reviewWith(subscribe);
    const declared = review.servers[0]!.declaredTools.find((t) => t.name === subscribe.name);
    expect(declared?.inputSchema).toEqual(subscribe.inputSchema);
    expect(declared?.outputSchema).toEqual(subscribe.outputSchema);
    const listed = toolListsFromReview(review)[0]!.tools.find((t) => t.name === subscribe.name);
    expect(listed?.inputSchema).toEqual(subscribe.inputSchema);
    expect(listed?.outputSchema).toEqual(subscribe.outputSchema);
  });

  it("get suggestions from their schemas' fields, each with a reason that names the field", () => {
    const review = reviewWith(subscribe);
    const model = buildModel(review, toolListsFromReview(review));
    const tool = model.toolsInOrder.find((t) => t.name === subscribe.name)!;
    const reasons = (role: string) =>
      tool.roles.reasons.find((r) => r.role === role)?.reasons.join("; ") ?? "";
    expect(tool.roles.roles).toContain("network_or_shares");
    expect(reasons("network_or_shares")).toMatch(/notificationUrl/);
    expect(tool.roles.roles).toContain("reads_private_data");
    expect(reasons("reads_private_data")).toMatch(/clientSecret/);
  });

  it("refuse a schema that is not a JSON object, or one too large for a review document", () => {
    expect(() => reviewWith({ ...subscribe, inputSchema: ["not", "an", "object"] })).toThrow();
    const huge = { type: "object", description: "x".repeat(100_001) };
    expect(() => reviewWith({ ...subscribe, outputSchema: huge })).toThrow();
  });
});
