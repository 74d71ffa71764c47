"use client";

import { useEffect, useId, useRef } from "react";

/** A modal confirmation built on <dialog>: focus is trapped by the browser, Escape cancels. */
export function ConfirmDialog(props: {
  open: boolean;
  title: string;
  body: string;
  confirmLabel: string;
  danger?: boolean;
  onConfirm: () => void;
  onCancel: () => void;
}) {
  const ref = useRef<HTMLDialogElement>(null);
  // Its own id: the header's Sign out everywhere dialog is on every page beside any other.
  const titleId = useId();
  useEffect(() => {
    const dialog = ref.current;
    if (!dialog) return;
    if (props.open && !dialog.open) dialog.showModal();
    if (!props.open && dialog.open) dialog.close();
  }, [props.open]);
  return (
    <dialog
      ref={ref}
      className="modal"
      aria-labelledby={titleId}
      onCancel={props.onCancel}
      onClose={props.onCancel}
    >
      <h2 id={titleId}>{props.title}</h2>
      <p>{props.body}</p>
      <div className="actions">
        <button type="button" className="btn" onClick={props.onCancel} autoFocus>
          Cancel
        </button>
        <button
          type="button"
          className={props.danger ? "btn btn-danger solid" : "btn btn-primary"}
          onClick={props.onConfirm}
        >
          {props.confirmLabel}
        </button>
      </div>
    </dialog>
  );
}
