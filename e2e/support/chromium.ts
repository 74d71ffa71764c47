/**
 * How the e2e suite and the graph benchmark start Debian's Chromium. The full browser in headless
 * mode builds its omnibox popup WebUIs (two extra renderers) for every new tab: about 0.9 s of CPU
 * on a 2-core box while the page under test loads, which is the browser's cost, not the page's.
 */
export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";

export const CHROMIUM_ARGS = [
  "--no-sandbox",
  "--disable-gpu",
  "--disable-quic",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
  "--no-first-run",
  "--disable-features=PreloadTopChromeWebUI,WebUIOmniboxPopup,WebUIOmniboxAimPopup",
];
