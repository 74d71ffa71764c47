import "server-only";
/** Small key → JSON settings (e.g. that the first start happened). */
import { eq } from "drizzle-orm";
import type { Db } from "@/lib/store/db";
import { settings } from "@/lib/store/tables";

export async function getSetting(db: Db, key: string): Promise<unknown> {
  const [row] = await db.select().from(settings).where(eq(settings.key, key));
  return row ? row.value : null;
}

export async function setSetting(db: Db, key: string, value: unknown): Promise<void> {
  await db
    .insert(settings)
    .values({ key, value })
    .onConflictDoUpdate({ target: settings.key, set: { value } });
}

/** Sets `key` only if absent; true when this call set it (the first of racing instances wins). */
export async function setSettingIfAbsent(db: Db, key: string, value: unknown): Promise<boolean> {
  const rows = await db
    .insert(settings)
    .values({ key, value })
    .onConflictDoNothing({ target: settings.key })
    .returning({ key: settings.key });
  return rows.length > 0;
}
