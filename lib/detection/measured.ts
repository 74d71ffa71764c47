// Written by scripts/measure-detector.ts from the held-out evaluation; do not edit by hand.
export const MEASURED: unknown = {
  recall: {
    k: 8313,
    n: 11522,
  },
  falsePositive: {
    k: 50,
    n: 1127,
  },
  modelSha256: "e14c00642ad3a5c405ce492a2add468a6f3e7e42ddd55ce20f33db7f9f7c8a8e",
  measuredAt: "2026-12-06",
  slices: [
    {
      name: "InjecAgent base, held-out attacker instructions",
      kind: "attack",
      k: 254,
      n: 272,
    },
    {
      name: "BIPIA attacked emails (test split)",
      kind: "attack",
      k: 8059,
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
      k: 46,
      n: 927,
    },
  ],
};
