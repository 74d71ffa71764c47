/**
 * The principal of the request being handled, for code far from the handler (the audit log's
 * actor): `withRoute` runs each handler inside `runAs`. Outside a request it is the owner token.
 */
import { AsyncLocalStorage } from "node:async_hooks";
import { OWNER_PRINCIPAL, type Principal } from "@/lib/auth/principal";

const storage = new AsyncLocalStorage<Principal>();

export function runAs<T>(principal: Principal, fn: () => T): T {
  return storage.run(principal, fn);
}

export function currentPrincipal(): Principal {
  return storage.getStore() ?? OWNER_PRINCIPAL;
}
