"use client";

import { useEffect, useRef } from "react";

/**
 * Sets the performance mark `name` two frames after `ready` first holds: when what it gates has
 * been painted. `npm run bench` reads it (bench/suites/review-page.ts); set once per mount.
 */
export function usePaintedMark(name: string, ready: boolean): void {
  const painted = useRef(false);
  useEffect(() => {
    if (!ready || painted.current) return;
    painted.current = true;
    requestAnimationFrame(() => requestAnimationFrame(() => performance.mark(name)));
  }, [name, ready]);
}
