"use client";
/** Marks events read for the owner (one, or all), then re-renders the server-rendered list. */
import { useRouter } from "next/navigation";
import { useState } from "react";
import { z } from "zod";
import { apiFetch } from "@/components/api-client";

export function MarkRead({ seqs, label }: { seqs: number[] | "all"; label: string }) {
  const router = useRouter();
  const [isBusy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const markRead = async () => {
    setBusy(true);
    setError(null);
    try {
      await apiFetch("/api/events/read", z.undefined(), {
        method: "POST",
        body: JSON.stringify(seqs === "all" ? { all: true } : { seqs }),
      });
      router.refresh();
    } catch (e) {
      setError(e instanceof Error ? e.message : String(e));
    } finally {
      setBusy(false);
    }
  };
  return (
    <>
      <button
        type="button"
        className="btn"

        disabled={isBusy}
        // markRead reports its own failure in the component; nothing awaits a click.
        onClick={() => void markRead()}
      >
        {label}
      </button>
      {error && (
        <span role="alert" className="small">
          {error}
        </span>
      )}
    </>
  );
}
