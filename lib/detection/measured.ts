// Written by scripts/measure-detector.ts from the held-out evaluation; do not edit by hand.
export const MEASURED: unknown = {
  recall: {
    k: 10508,
    n: 11522,
  },
  falsePositive: {
    k: 44,
    n: 1268,
  },
  modelSha256: "95b7f16a0651bd6bd91f2913c438bb1b7196cb5046636db9d7e08a71d0675d5c",
  measuredAt: "2026-12-06",
  slices: [
    {
      name: "InjecAgent base, held-out attacker instructions",
      kind: "attack",
      k: 235,
      n: 272,
    },
    {
      name: "BIPIA attacked emails (test split)",
      kind: "attack",
      k: 10273,
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
      k: 7359,
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
      k: 3,
      n: 50,
    },
    {
      name: "tool descriptions in tests/corpus",
      kind: "clean",
      k: 40,
      n: 1068,
    },
  ],
};
