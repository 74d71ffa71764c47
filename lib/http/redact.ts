/**
 * Share-link tokens out of log lines: a share link's path carries its token (`/share/<token>`,
 * `/api/share/<token>/…`), and a token may ride in a query (`?token=…`). Anyone who can read the
 * log must not be able to open the review. Pure.
 */
const SHARE_SEGMENT = /(\/share\/)[^/?#\s]+/g;
const TOKEN_QUERY = /([?&#](?:token|share_token|access_token|api_key|apikey|key)=)[^&#\s]*/gi;

export function redactUrlSecrets(text: string): string {
  return text.replace(SHARE_SEGMENT, "$1[redacted]").replace(TOKEN_QUERY, "$1[redacted]");
}
