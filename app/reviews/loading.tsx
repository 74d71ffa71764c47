export default function Loading() {
  return (
    <main className="page" aria-busy="true">
      <div className="skeleton" style={{ width: "40%", height: "1.8rem", marginBottom: "1rem" }} />
      <div className="skeleton" style={{ height: "12rem" }} />
    </main>
  );
}
