"use client";

import { useSyncExternalStore, type ComponentType, type ReactNode } from "react";

const subscribe = () => () => {};

/**
 * False in a server render and while hydrating it, true once this part of the page is hydrated
 * (and in any render that is not a hydration).
 */
export function useHydrated(): boolean {
  return useSyncExternalStore(
    subscribe,
    () => true,
    () => false,
  );
}

/**
 * A server-rendered form is on screen before React owns it: text typed into a controlled input
 * then stays in the DOM but never reaches the component's state, and a click on a button is lost,
 * so a save would write the old value while the page shows the new one. Each review section is its
 * own chunk and hydrates only once that chunk has loaded, so the gap can be seconds on a slow
 * machine; every page with a client form has the gap, if shorter. The gate disables every control inside it (a disabled fieldset) until its own subtree
 * has hydrated: nothing can be typed that the component will not see.
 */
export function HydrationGate({ children }: { children: ReactNode }) {
  const hydrated = useHydrated();
  return (
    <fieldset
      className="hydration-gate"
      disabled={!hydrated}
      aria-busy={hydrated ? undefined : true}
    >
      {children}
    </fieldset>
  );
}

/**
 * `Component` inside a HydrationGate. For a `next/dynamic` loader: the gate must be rendered inside
 * the chunk's boundary, or it would hydrate (and enable) before the section it guards.
 */
export function gated<P extends object>(Component: ComponentType<P>): ComponentType<P> {
  function Gated(props: P) {
    return (
      <HydrationGate>
        <Component {...props} />
      </HydrationGate>
    );
  }
  Gated.displayName = `Gated(${Component.displayName ?? Component.name})`;
  return Gated;
}
