/**
 * A minimal HTML response for the few routes a browser lands on directly (the OAuth callback and
 * its finish step), outside the React app. Every piece of text is escaped: what an authorization
 * server puts in `error_description` arrives here. No script; a same-origin hand-over uses a
 * meta refresh with a link as its fallback. Never cached, never sent as a referrer (the URL may
 * carry an authorization code).
 */

export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

export type HtmlPage = {
  status: number;
  title: string;
  paragraphs: readonly string[];
  /** A same-origin path to continue to. */
  link?: { href: string; label: string };
  /** Follow `link` at once (meta refresh). */
  isRedirect?: boolean;
};

export function htmlPageResponse(page: HtmlPage): Response {
  const link = page.link;
  if (link && !/^\/(?![/\\])/.test(link.href))
    throw new TypeError("links must be same-origin paths");
  const head = [
    `<meta charset="utf-8">`,
    `<meta name="referrer" content="no-referrer">`,
    `<title>${escapeHtml(page.title)}</title>`,
    ...(page.isRedirect && link
      ? [`<meta http-equiv="refresh" content="0;url=${escapeHtml(link.href)}">`]
      : []),
  ].join("\n");
  const body = [
    `<main style="font-family: system-ui, sans-serif; max-width: 42rem; margin: 3rem auto; line-height: 1.5">`,
    `<h1>${escapeHtml(page.title)}</h1>`,
    ...page.paragraphs.map((p) => `<p>${escapeHtml(p)}</p>`),
    ...(link ? [`<p><a href="${escapeHtml(link.href)}">${escapeHtml(link.label)}</a></p>`] : []),
    `</main>`,
  ].join("\n");
  return new Response(
    `<!doctype html>\n<html lang="en"><head>\n${head}\n</head><body>\n${body}\n</body></html>\n`,
    {
      status: page.status,
      headers: {
        "Content-Type": "text/html; charset=utf-8",
        "Cache-Control": "no-store",
        "Referrer-Policy": "no-referrer",
        "X-Frame-Options": "DENY",
      },
    },
  );
}
