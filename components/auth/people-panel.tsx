"use client";
/**
 * The People page's table: each person who has signed in, their IdP groups and the role those
 * give, the role an admin assigned (which wins), and the role they hold now. Changing the
 * assignment saves at once (PUT /api/people/{issuer#subject}); the server logs it.
 */
import { refreshAfterWrite } from "@/components/refresh-after-write";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { z } from "zod";
import { apiFetch } from "@/components/api-client";
import { peopleKeys } from "@/components/query-keys";
import { ListPeopleResponseSchema, type PersonView } from "@/lib/auth/api";
import { ROLES, type Role } from "@/lib/auth/roles";
import { utcMinute } from "@/lib/format/utc-time";

const FROM_GROUPS = "";

export function PeoplePanel() {
  const list = useQuery({
    queryKey: peopleKeys.all,
    queryFn: () => apiFetch("/api/people", ListPeopleResponseSchema),
  });
  if (list.isPending) return <div className="skeleton" style={{ height: "6rem" }} aria-busy />;
  if (list.isError)
    return (
      <div className="callout danger" role="alert">
        Could not load the people: {list.error.message}
      </div>
    );
  if (list.data.people.length === 0)
    return (
      <div className="card empty">Nobody has signed in through the identity provider yet.</div>
    );
  return (
    <div className="card">
      <table className="data" aria-label="People">
        <thead>
          <tr>
            <th scope="col">Name</th>
            <th scope="col">Issuer and subject</th>
            <th scope="col">Groups</th>
            <th scope="col">From groups</th>
            <th scope="col">Assigned</th>
            <th scope="col">Holds</th>
            <th scope="col">Last sign-in</th>
          </tr>
        </thead>
        <tbody>
          {list.data.people.map((p) => (
            <PersonRow key={p.key} person={p} />
          ))}
        </tbody>
      </table>
    </div>
  );
}

function PersonRow({ person }: { person: PersonView }) {
  const queryClient = useQueryClient();
  const [note, setNote] = useState<{ kind: "ok" | "error"; text: string } | null>(null);
  const assign = useMutation({
    mutationFn: (role: Role | null) =>
      apiFetch(
        `/api/people/${encodeURIComponent(person.key)}`,
        z.object({ role: z.string().nullable() }),
        { method: "PUT", body: JSON.stringify({ role }) },
      ),
    onSuccess: (r) => setNote({ kind: "ok", text: `saved: holds ${r.role ?? "no role"}` }),
    onError: (e) => setNote({ kind: "error", text: e instanceof Error ? e.message : String(e) }),
    onSettled: () => refreshAfterWrite(queryClient, peopleKeys.all),
  });
  return (
    <tr data-person={person.key}>
      <th scope="row">
        {person.name}
        {person.email && <div className="small muted">{person.email}</div>}
      </th>
      <td className="mono small">
        {person.issuer}
        <br />
        {person.subject}
      </td>
      <td className="small">{person.groups.length > 0 ? person.groups.join(", ") : "none"}</td>
      <td>{person.idpRole ?? "none"}</td>
      <td>
        <select
          aria-label={`Assigned role of ${person.name}`}
          value={person.assignedRole ?? FROM_GROUPS}
          disabled={assign.isPending}
          onChange={(e) => {
            setNote(null);
            assign.mutate(e.target.value === FROM_GROUPS ? null : (e.target.value as Role));
          }}
        >
          <option value={FROM_GROUPS}>from groups</option>
          {ROLES.map((r) => (
            <option key={r} value={r}>
              {r}
            </option>
          ))}
        </select>
        {note && (
          <div
            className={note.kind === "error" ? "callout danger small" : "small muted"}
            role={note.kind === "error" ? "alert" : "status"}
          >
            {note.text}
          </div>
        )}
      </td>
      <td data-testid="person-role">
        <strong>{person.role ?? "no role"}</strong>
      </td>
      <td className="small">{utcMinute(person.lastSeen)}</td>
    </tr>
  );
}
