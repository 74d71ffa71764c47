"use client";
/** A watched server's re-inspection interval (hours) and pause switch. */
import { useRouter } from "next/navigation";
import { useState } from "react";
import { apiFetch } from "@/components/api-client";
import { WatchViewSchema } from "@/lib/watch/schedule";

export function WatchInterval(props: {
  reviewId: string;
  serverId: string;
  intervalSeconds: number;
  isEnabled: boolean;
}) {
  const router = useRouter();
  const [hours, setHours] = useState(String(+(props.intervalSeconds / 3600).toFixed(4)));
  const [isEnabled, setEnabled] = useState(props.isEnabled);
  const [message, setMessage] = useState<string | null>(null);
  const save = async () => {
    setMessage(null);
    try {
      await apiFetch(
        `/api/reviews/${encodeURIComponent(props.reviewId)}/servers/${encodeURIComponent(props.serverId)}/watch`,
        WatchViewSchema,
        {
          method: "PUT",
          body: JSON.stringify({
            intervalSeconds: Math.round(Number(hours) * 3600),
            isEnabled,
          }),
        },
      );
      setMessage("saved");
      router.refresh();
    } catch (error) {
      setMessage(error instanceof Error ? error.message : String(error));
    }
  };
  return (
    <form
      className="row"
      aria-label={`Schedule of ${props.serverId}`}
      onSubmit={(e) => {
        e.preventDefault();
        // save reports its own outcome in the form; nothing awaits a submit.
        void save();
      }}
    >
      <label className="row" style={{ gap: 4 }}>
        <span className="small">every</span>
        <input
          type="number"
          min={0.01}
          step="any"
          value={hours}
          onChange={(e) => setHours(e.target.value)}
          style={{ width: "6em" }}
          aria-label="Interval in hours"
        />
        <span className="small">hours</span>
      </label>
      <label className="row" style={{ gap: 4 }}>
        <input type="checkbox" checked={isEnabled} onChange={(e) => setEnabled(e.target.checked)} />
        <span className="small">on</span>
      </label>
      <button type="submit" className="btn btn-primary">
        Save
      </button>
      {message && (
        <span className="small" role="status">
          {message}
        </span>
      )}
    </form>
  );
}
