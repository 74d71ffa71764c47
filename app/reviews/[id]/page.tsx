import { isReviewSection } from "@/components/review/sections";
import { ReviewWorkbench } from "@/components/review/workbench";

export default async function ReviewPage(props: {
  params: Promise<{ id: string }>;
  searchParams: Promise<{ section?: string | string[] }>;
}) {
  const { id } = await props.params;
  const { section } = await props.searchParams;
  const current = typeof section === "string" && isReviewSection(section) ? section : "sources";
  return (
    <main className="page">
      <ReviewWorkbench id={id} section={current} />
    </main>
  );
}
