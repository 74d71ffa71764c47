/**
 * Times as the workbench shows them: in UTC, named as such. Every page is rendered on the server
 * first, and a time in the browser's own zone would differ from the server's render (a hydration
 * mismatch, and a reader in another zone would not know which zone a bare time is in).
 */

const minuteFormat = new Intl.DateTimeFormat("en-GB", {
  dateStyle: "medium",
  timeStyle: "short",
  timeZone: "UTC",
});
const secondFormat = new Intl.DateTimeFormat("en-GB", {
  dateStyle: "medium",
  timeStyle: "medium",
  timeZone: "UTC",
});
const dayFormat = new Intl.DateTimeFormat("en-GB", { dateStyle: "medium", timeZone: "UTC" });

type When = string | number | Date;

/** "7 Dec 2026, 14:02 UTC". */
export const utcMinute = (when: When): string => `${minuteFormat.format(new Date(when))} UTC`;

/** "7 Dec 2026, 14:02:09 UTC": for events, whose order within a minute matters. */
export const utcSecond = (when: When): string => `${secondFormat.format(new Date(when))} UTC`;

/** "7 Dec 2026": a day, with no time to put in a zone. */
export const utcDay = (when: When): string => dayFormat.format(new Date(when));
