/**
 * White space by UTF-16 code unit, in a module of its own: text.ts reads it and so does
 * features.ts, which text.ts imports (features.ts cannot import text.ts back).
 */
/** White space as `\s` has it. */
export const isSpace = (c: number) =>
  c === 0x20 ||
  (c >= 0x09 && c <= 0x0d) ||
  (c >= 0x80 &&
    (c === 0xa0 ||
      c === 0x1680 ||
      (c >= 0x2000 && c <= 0x200a) ||
      c === 0x2028 ||
      c === 0x2029 ||
      c === 0x202f ||
      c === 0x205f ||
      c === 0x3000 ||
      c === 0xfeff));
