/**
 * Text widths at the graph's font, measured on a canvas (no layout reflow). Browser only; where no
 * canvas context is available, an estimate from the character count.
 */
const CHAR = 0.6;

let ctx: CanvasRenderingContext2D | null | undefined;
let fontFamily = "sans-serif";
/** The font last set on `ctx`: setting it parses the string, once per label otherwise. */
let ctxFont = "";

/** The width of `text` in pixels at `size` px and `weight`. */
export function measureText(text: string, size: number, weight = 400): number {
  if (ctx === undefined) {
    if (typeof document === "undefined") return [...text].length * size * CHAR;
    ctx = document.createElement("canvas").getContext("2d");
    fontFamily = getComputedStyle(document.body).fontFamily || fontFamily;
  }
  if (!ctx) return [...text].length * size * CHAR;
  const font = `${weight} ${size}px ${fontFamily}`;
  if (font !== ctxFont) ctx.font = ctxFont = font;
  return ctx.measureText(text).width;
}

/** The width of `text` at a font key of node-labels.ts ("600 12": weight, then size). */
export function measureByKey(text: string, key: string): number {
  const [weight, size] = key.split(" ").map(Number);
  return measureText(text, size!, weight);
}
