/**
 * Fitting a label into a width, with an ellipsis when it is cut. Pure: the width of a text comes
 * from `measure` (a canvas in the browser, any function in a test).
 */

/**
 * `text` when it fits in `px`, otherwise its longest prefix that fits with "…" after it (at least
 * one character). Starts from the prefix length proportional to the overflow, gallops away from it
 * until the answer is bracketed, then bisects: a few measurements per label, where a bisection
 * over the whole text takes about log2(length). Assumes a longer prefix is never narrower.
 */
export function fitText(text: string, px: number, measure: (text: string) => number): string {
  const full = measure(text);
  if (full <= px || text.length <= 1) return text;
  const fits = (n: number) => measure(`${text.slice(0, n)}…`) <= px;
  const guess = Math.min(text.length - 1, Math.max(1, Math.floor((text.length * px) / full)));
  let lo = 1; // a prefix length that fits, or the shortest one allowed
  let hi = text.length - 1; // no longer prefix can fit
  if (fits(guess)) {
    lo = guess;
    let step = 1;
    while (lo + step <= hi && fits(lo + step)) {
      lo += step;
      step *= 2;
    }
    hi = Math.min(hi, lo + step - 1);
  } else {
    hi = guess - 1;
    for (let step = 1; guess - step > lo; step *= 2) {
      if (fits(guess - step)) {
        lo = guess - step;
        break;
      }
      hi = guess - step - 1;
    }
  }
  while (lo < hi) {
    const mid = Math.ceil((lo + hi) / 2);
    if (fits(mid)) lo = mid;
    else hi = mid - 1;
  }
  return `${text.slice(0, lo).trimEnd()}…`;
}
