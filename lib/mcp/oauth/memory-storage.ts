/**
 * OAuth state kept in memory only, for the CLI (one process, one server) and tests: nothing is
 * written to disk, so a token, a verifier or a client secret never outlives the process. The
 * verifier is taken once by the state it was saved under (a replayed callback finds none).
 */
import type {
  OAuthClientInformationMixed,
  OAuthDiscoveryState,
  OAuthInvalidateScope,
  OAuthStorage,
  StoredTokens,
  TokenFacts,
} from "@/lib/mcp/oauth/interface";

/** At most this many authorization requests wait for their callback at once. */
const MAX_PENDING_VERIFIERS = 8;

export class MemoryOAuthStorage implements OAuthStorage {
  private client: OAuthClientInformationMixed | undefined;
  private tokens: StoredTokens | undefined;
  private discovery: OAuthDiscoveryState | undefined;
  private readonly verifiers = new Map<string, string>();
  /** The facts of the last token saved (what a caller may show; no token). */
  facts: TokenFacts | null = null;

  /** `seed.refreshToken`: a refresh token given by the operator (the headless CI mode). */
  constructor(seed: { refreshToken?: string; issuer?: string } = {}) {
    if (seed.refreshToken)
      this.tokens = {
        access_token: "",
        token_type: "bearer",
        refresh_token: seed.refreshToken,
        ...(seed.issuer ? { issuer: seed.issuer } : {}),
        obtained_at: 0,
      };
  }

  loadClientInformation(): Promise<unknown> {
    return Promise.resolve(this.client);
  }
  saveClientInformation(info: OAuthClientInformationMixed): Promise<void> {
    this.client = info;
    return Promise.resolve();
  }
  loadTokens(): Promise<unknown> {
    return Promise.resolve(this.tokens);
  }
  saveTokens(tokens: StoredTokens, facts: TokenFacts): Promise<void> {
    this.tokens = tokens;
    this.facts = facts;
    return Promise.resolve();
  }
  loadDiscoveryState(): Promise<unknown> {
    return Promise.resolve(this.discovery);
  }
  saveDiscoveryState(state: OAuthDiscoveryState): Promise<void> {
    this.discovery = state;
    return Promise.resolve();
  }
  saveCodeVerifier(state: string, codeVerifier: string): Promise<void> {
    if (this.verifiers.size >= MAX_PENDING_VERIFIERS) {
      const oldest = this.verifiers.keys().next().value;
      if (oldest !== undefined) this.verifiers.delete(oldest);
    }
    this.verifiers.set(state, codeVerifier);
    return Promise.resolve();
  }
  /** The verifier saved under `state`, once; null for an unknown or already used state. */
  takeCodeVerifier(state: string): string | null {
    const v = this.verifiers.get(state) ?? null;
    this.verifiers.delete(state);
    return v;
  }
  invalidate(scope: OAuthInvalidateScope): Promise<void> {
    if (scope === "all" || scope === "client") this.client = undefined;
    if (scope === "all" || scope === "tokens") {
      this.tokens = undefined;
      this.facts = null;
    }
    if (scope === "all" || scope === "discovery") this.discovery = undefined;
    if (scope === "all" || scope === "verifier") this.verifiers.clear();
    return Promise.resolve();
  }
}
