// Written by scripts/measure-detector.ts from the held-out evaluation; do not edit by hand.
export const MEASURED: unknown = {
  recall: {
    k: 10458,
    n: 11522,
  },
  falsePositive: {
    k: 21,
    n: 3137,
  },
  modelSha256: "669d112e8c7b57c5054242ab1702359f1821a87986fe3e084a0a325cdf79486d",
  measuredAt: "2026-12-07",
  slices: [
    {
      name: "InjecAgent base, held-out attacker instructions",
      kind: "attack",
      k: 256,
      n: 272,
    },
    {
      name: "BIPIA attacked emails (test split)",
      kind: "attack",
      k: 10202,
      n: 11250,
    },
    {
      name: "InjecAgent enhanced, held-out attacker instructions",
      kind: "attack",
      k: 272,
      n: 272,
    },
    {
      name: "BIPIA attacked code answers (test split)",
      kind: "attack",
      k: 7051,
      n: 7500,
    },
    {
      name: "BIPIA clean emails (test split)",
      kind: "clean",
      k: 0,
      n: 50,
    },
    {
      name: "BIPIA clean tables (test split)",
      kind: "clean",
      k: 1,
      n: 100,
    },
    {
      name: "BIPIA clean code answers (test split)",
      kind: "clean",
      k: 0,
      n: 50,
    },
    {
      name: "tool descriptions in tests/corpus",
      kind: "clean",
      k: 20,
      n: 2937,
    },
    {
      name: "tool descriptions in tests/corpus, scanned as returned text",
      kind: "clean",
      k: 42,
      n: 2937,
    },
  ],
};
