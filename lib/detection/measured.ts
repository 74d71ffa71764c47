// Written by scripts/measure-detector.ts from the held-out evaluation; do not edit by hand.
export const MEASURED: unknown = {
  recall: {
    k: 8354,
    n: 11522,
  },
  falsePositive: {
    k: 67,
    n: 1127,
  },
  modelSha256: "2e13f71c199916d0272da2fc4d68486682a022d84e2135319b3e9202422ec92f",
  measuredAt: "2026-12-06",
  slices: [
    {
      name: "InjecAgent base, held-out attacker instructions",
      kind: "attack",
      k: 233,
      n: 272,
    },
    {
      name: "BIPIA attacked emails (test split)",
      kind: "attack",
      k: 8121,
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
      k: 7362,
      n: 7500,
    },
    {
      name: "BIPIA clean emails (test split)",
      kind: "clean",
      k: 1,
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
      k: 3,
      n: 50,
    },
    {
      name: "tool descriptions in tests/corpus",
      kind: "clean",
      k: 62,
      n: 927,
    },
  ],
};
