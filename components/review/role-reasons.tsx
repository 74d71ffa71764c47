/**
 * Every reason behind a suggested role, beside the role's checkbox. The first shows inline; the
 * others are part of the checkbox's label (so a screen reader reads all of them with the role) and
 * appear on screen while the checkbox has keyboard focus; on hover the label's title lists them.
 * "+2 more" says that there are others.
 */
import "./role-reasons.css";

export function RoleReasons({ reasons }: { reasons: readonly string[] }) {
  if (reasons.length === 0) return null;
  const rest = reasons.slice(1);
  return (
    <span className="small muted rr-role-reasons" data-testid="role-reasons">
      {" "}
      (suggested: {reasons[0]}
      {rest.length > 0 && (
        <>
          <span className="rr-reasons-rest">; {rest.join("; ")}</span>
          <span className="rr-reasons-count" aria-hidden="true">
            {" "}
            +{rest.length} more
          </span>
        </>
      )}
      )
    </span>
  );
}
