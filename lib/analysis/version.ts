/**
 * The shape of the `Analysis` JSON (docs/analysis.md). In its own module so that the browser can
 * check a response's version without bundling the analysis. 2 dropped `tools[].reasons` and
 * `controls.findings`, which repeated other fields. 3 added each tool's suggestion confidence, name
 * verb and annotation conflicts; resources and resource templates in `tools[]` (with `item`),
 * `prompts`, and the returning graph node's `item`.
 */
export const ANALYSIS_VERSION = 3;
