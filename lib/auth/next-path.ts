/** Where to go after signing in: only a local path, never `//host`, `/\host` or a scheme. Pure, browser-safe. */
export function safeNextPath(next: string | null | undefined): string {
  if (!next || !next.startsWith("/") || next.startsWith("//") || next.startsWith("/\\")) return "/";
  return next;
}
