/** Relay Review's version, as package.json says (a test keeps them equal): named in exports a tool reads, such as SARIF's driver. */
export const RELAY_REVIEW_VERSION = "0.1.0";
