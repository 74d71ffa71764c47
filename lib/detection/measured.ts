// Written by scripts/measure-detector.ts from the held-out evaluation; do not edit by hand.
export const MEASURED: unknown = {
  recall: {
    k: 10459,
    n: 11522,
  },
  falsePositive: {
    k: 16,
    n: 1268,
  },
  modelSha256: "93294bf070a8fc9f908b3f5d1076be2b3c600e30fbfed85d1b41767adbdaf140",
  measuredAt: "2026-12-06",
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
      k: 10203,
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
      k: 7218,
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
      k: 12,
      n: 1068,
    },
    {
      name: "tool descriptions in tests/corpus, scanned as returned text",
      kind: "clean",
      k: 14,
      n: 1068,
    },
  ],
};
