/**
 * A local OpenID provider for the demo and the tests: `oidc-provider` (a certified OpenID
 * provider) on loopback, with a plain login form of its own (the library's development pages load
 * web fonts from the internet; this one loads nothing) and four demo people whose groups map to
 * the four roles. Consent is implied for the one client, the workbench.
 *
 *   npm run demo:idp            # listens on 127.0.0.1:4400 and prints the workbench's settings
 *
 * Never for production: the users, passwords, client secret and signing keys are all made up here.
 */
import http from "node:http";
import type { AddressInfo } from "node:net";
import { randomBytes } from "node:crypto";
// oidc-provider ships no type declarations; the few calls made here are typed locally below.
// @ts-expect-error -- untyped module
import ProviderModule from "oidc-provider";

export interface DemoUser {
  id: string;
  password: string;
  name: string;
  email: string;
  groups: string[];
}

export const DEMO_USERS: readonly DemoUser[] = [
  {
    id: "alice",
    password: "alice",
    name: "Alice Reviewer",
    email: "alice@example.test",
    groups: ["relay-reviewers"],
  },
  {
    id: "bob",
    password: "bob",
    name: "Bob Approver",
    email: "bob@example.test",
    groups: ["relay-approvers"],
  },
  {
    id: "carol",
    password: "carol",
    name: "Carol Viewer",
    email: "carol@example.test",
    groups: ["relay-viewers"],
  },
  {
    id: "dana",
    password: "dana",
    name: "Dana Admin",
    email: "dana@example.test",
    groups: ["relay-admins"],
  },
];
export const DEMO_ROLE_MAP =
  "relay-viewers=viewer,relay-reviewers=reviewer,relay-approvers=approver,relay-admins=admin";
export const DEMO_CLIENT_ID = "relay-review";
export const DEMO_CLIENT_SECRET = "demo-client-secret-not-for-production";

export interface DemoIdp {
  issuer: string;
  /** The workbench's environment for this provider. */
  env: Record<string, string>;
  close(): Promise<void>;
}

interface InteractionDetails {
  uid: string;
  prompt: { name: string };
  params: Record<string, unknown>;
}
interface ProviderLike {
  callback(): (req: http.IncomingMessage, res: http.ServerResponse) => void;
  interactionDetails(
    req: http.IncomingMessage,
    res: http.ServerResponse,
  ): Promise<InteractionDetails>;
  interactionFinished(
    req: http.IncomingMessage,
    res: http.ServerResponse,
    result: Record<string, unknown>,
    options?: { mergeWithLastSubmission?: boolean },
  ): Promise<void>;
  proxy?: boolean;
}
type ProviderCtor = new (issuer: string, config: Record<string, unknown>) => ProviderLike;
const Provider = ProviderModule as ProviderCtor;

const esc = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

function page(title: string, body: string): string {
  return `<!doctype html><html><head><meta charset="utf-8"><title>${esc(title)}</title></head><body style="font-family: system-ui, sans-serif; max-width: 28rem; margin: 3rem auto"><h1>${esc(title)}</h1>${body}</body></html>`;
}

async function readForm(req: http.IncomingMessage): Promise<URLSearchParams> {
  let text = "";
  for await (const chunk of req) {
    text += String(chunk);
    if (text.length > 10_000) break;
  }
  return new URLSearchParams(text);
}

export async function startDemoIdp(options: {
  port?: number;
  /** Redirect URIs of the workbench, e.g. http://127.0.0.1:3000/api/auth/oidc/callback. */
  redirectUris: string[];
  users?: readonly DemoUser[];
}): Promise<DemoIdp> {
  const users = options.users ?? DEMO_USERS;
  const server = http.createServer();
  await new Promise<void>((resolve) => server.listen(options.port ?? 0, "127.0.0.1", resolve));
  const port = (server.address() as AddressInfo).port;
  const issuer = `http://127.0.0.1:${port}`;
  const provider = new Provider(issuer, {
    clients: [
      {
        client_id: DEMO_CLIENT_ID,
        client_secret: DEMO_CLIENT_SECRET,
        redirect_uris: options.redirectUris,
        grant_types: ["authorization_code"],
        response_types: ["code"],
        token_endpoint_auth_method: "client_secret_post",
      },
    ],
    pkce: { required: () => true },
    claims: { openid: ["sub"], profile: ["name"], email: ["email"], groups: ["groups"] },
    scopes: ["openid", "profile", "email", "groups"],
    features: { devInteractions: { enabled: false } },
    cookies: { keys: [randomBytes(32).toString("base64url")] },
    findAccount: (_ctx: unknown, sub: string) => {
      const user = users.find((u) => u.id === sub);
      if (!user) return undefined;
      return {
        accountId: sub,
        claims: () => ({ sub, name: user.name, email: user.email, groups: user.groups }),
      };
    },
    // The workbench is this provider's only client: consent is implied, for exactly what it asks.
    loadExistingGrant: async (ctx: {
      oidc: {
        client: { clientId: string };
        session: { accountId: string; grantIdFor(id: string): string | undefined };
        result?: { consent?: { grantId?: string } };
        provider: {
          Grant: (new (o: Record<string, string>) => {
            addOIDCScope(s: string): void;
            save(): Promise<string>;
          }) & { find(id: string): Promise<unknown> };
        };
      };
    }) => {
      const id =
        ctx.oidc.result?.consent?.grantId ?? ctx.oidc.session.grantIdFor(ctx.oidc.client.clientId);
      if (id) return ctx.oidc.provider.Grant.find(id);
      const grant = new ctx.oidc.provider.Grant({
        clientId: ctx.oidc.client.clientId,
        accountId: ctx.oidc.session.accountId,
      });
      grant.addOIDCScope("openid profile email groups");
      await grant.save();
      return grant;
    },
    renderError: (ctx: { type: string; body: string }, out: Record<string, string>) => {
      ctx.type = "html";
      ctx.body = page(
        "Sign-in error",
        Object.entries(out)
          .map(([k, v]) => `<p><b>${esc(k)}</b>: ${esc(String(v))}</p>`)
          .join(""),
      );
    },
  });
  const handle = provider.callback();
  server.on("request", (req, res) => {
    const url = new URL(req.url ?? "/", issuer);
    const m = /^\/interaction\/([A-Za-z0-9_-]+)(\/login)?$/.exec(url.pathname);
    if (!m) return handle(req, res);
    void (async () => {
      try {
        const details = await provider.interactionDetails(req, res);
        if (m[2] && req.method === "POST") {
          const form = await readForm(req);
          const user = users.find(
            (u) => u.id === form.get("login") && u.password === form.get("password"),
          );
          if (!user) {
            res.writeHead(200, { "Content-Type": "text/html; charset=utf-8" });
            res.end(page("Sign in", `<p>Wrong user or password.</p>${loginForm(details.uid)}`));
            return;
          }
          await provider.interactionFinished(
            req,
            res,
            { login: { accountId: user.id } },
            { mergeWithLastSubmission: false },
          );
          return;
        }
        res.writeHead(200, { "Content-Type": "text/html; charset=utf-8" });
        res.end(page("Sign in to the demo IdP", loginForm(details.uid)));
      } catch (error) {
        res.writeHead(400, { "Content-Type": "text/plain; charset=utf-8" });
        res.end(`interaction failed: ${error instanceof Error ? error.message : String(error)}`);
      }
    })();
  });
  return {
    issuer,
    env: {
      RELAY_REVIEW_OIDC_ISSUER: issuer,
      RELAY_REVIEW_OIDC_CLIENT_ID: DEMO_CLIENT_ID,
      RELAY_REVIEW_OIDC_CLIENT_SECRET: DEMO_CLIENT_SECRET,
      RELAY_REVIEW_OIDC_ROLE_MAP: DEMO_ROLE_MAP,
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

function loginForm(uid: string): string {
  const users = DEMO_USERS.map(
    (u) =>
      `<li><code>${esc(u.id)}</code> / <code>${esc(u.password)}</code>: ${esc(u.name)} (${esc(u.groups.join(", "))})</li>`,
  ).join("");
  return `<form method="post" action="/interaction/${esc(uid)}/login">
<p><label>User <input name="login" autocomplete="username" required></label></p>
<p><label>Password <input name="password" type="password" autocomplete="current-password" required></label></p>
<p><button type="submit">Sign in</button></p></form><p>Demo users:</p><ul>${users}</ul>`;
}

const isMain = import.meta.url === `file://${process.argv[1]}`;
if (isMain) {
  const port = Number(process.env.IDP_PORT ?? 4400);
  const app = process.env.APP_ORIGIN ?? `http://127.0.0.1:${process.env.PORT ?? 3000}`;
  const idp = await startDemoIdp({ port, redirectUris: [`${app}/api/auth/oidc/callback`] });
  console.log(
    `demo IdP listening at ${idp.issuer} (loopback only; demo users alice, bob, carol, dana; password = user name)`,
  );
  console.log("Start the workbench with:");
  console.log(
    Object.entries(idp.env)
      .map(([k, v]) => `${k}=${v}`)
      .join(" \\\n  ") + " \\\n  npm start",
  );
}
