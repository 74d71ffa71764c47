/**
 * Where to go after signing in: only a path on this origin. Browsers drop tabs and newlines from a
 * URL and read `\` as `/`, so `/\t/evil.example` becomes `//evil.example`, another host: any
 * control character, whitespace or backslash refuses the value outright, and what is left must
 * resolve to this origin. Pure, browser-safe.
 */
const BASE = "http://relay-review.invalid";
const UNSAFE =
  // eslint-disable-next-line no-control-regex -- control characters are exactly what this refuses
  /[\u0000-\u0020\u007f-\u00a0\u1680\u2000-\u200f\u2028-\u202f\u205f-\u2064\u3000\ufeff\\]/;

export function safeNextPath(next: string | null | undefined): string {
  if (!next || !next.startsWith("/") || next.startsWith("//") || UNSAFE.test(next)) return "/";
  let url: URL;
  try {
    url = new URL(next, BASE);
  } catch {
    return "/";
  }
  if (url.origin !== BASE) return "/";
  return `${url.pathname}${url.search}${url.hash}`;
}
