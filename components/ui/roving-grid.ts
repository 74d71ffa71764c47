"use client";

import { useCallback, useEffect, useRef } from "react";

/** The controls a grid's keys move between, in a row's reading order. */
const CONTROLS = "input:not([disabled]), button:not([disabled]), select:not([disabled])";

const controlsOf = (row: Element): HTMLElement[] =>
  [...row.querySelectorAll<HTMLElement>(CONTROLS)].filter((el) => !el.closest("[hidden]"));

/**
 * One tab stop for a table of controls (a roles table with nine checkboxes a row would otherwise
 * take nine Tab presses a row): Tab enters and leaves the table, the arrow keys move between the
 * controls (← → within a row, ↑ ↓ to the same column of the next row, Home/End to a row's ends),
 * and Space or Enter act on the control as usual. The last control focused keeps the tab stop.
 *
 * It works on the DOM the table renders, so rows keep their plain checkboxes and labels.
 */
export function useRovingGrid<T extends HTMLElement>() {
  const ref = useRef<T>(null);
  const active = useRef<HTMLElement | null>(null);

  // After every render: exactly one control of the grid is in the tab order.
  useEffect(() => {
    const root = ref.current;
    if (!root) return;
    const all = [...root.querySelectorAll<HTMLElement>(CONTROLS)];
    const current = active.current && root.contains(active.current) ? active.current : all[0];
    for (const el of all) el.tabIndex = el === current ? 0 : -1;
  });

  const onFocus = useCallback((event: React.FocusEvent) => {
    const root = ref.current;
    const target = event.target as HTMLElement;
    if (!root || !target.matches(CONTROLS)) return;
    if (active.current && active.current !== target && root.contains(active.current))
      active.current.tabIndex = -1;
    active.current = target;
    target.tabIndex = 0;
  }, []);

  const onKeyDown = useCallback((event: React.KeyboardEvent) => {
    const root = ref.current;
    const target = event.target as HTMLElement;
    if (!root || !target.matches(CONTROLS) || target.tagName === "SELECT") return;
    const row = target.closest("tr");
    if (!row) return;
    const rows = [...root.querySelectorAll("tr")].filter((r) => controlsOf(r).length > 0);
    const cells = controlsOf(row);
    const col = cells.indexOf(target);
    const r = rows.indexOf(row);
    let next: HTMLElement | undefined;
    switch (event.key) {
      case "ArrowRight":
        next = cells[col + 1];
        break;
      case "ArrowLeft":
        next = cells[col - 1];
        break;
      case "Home":
        next = cells[0];
        break;
      case "End":
        next = cells[cells.length - 1];
        break;
      case "ArrowDown":
      case "ArrowUp": {
        const other = rows[r + (event.key === "ArrowDown" ? 1 : -1)];
        if (other) {
          const there = controlsOf(other);
          next = there[Math.min(col, there.length - 1)];
        }
        break;
      }
      default:
        return;
    }
    event.preventDefault();
    next?.focus();
  }, []);

  return { ref, onFocus, onKeyDown };
}
