import { eq } from 'drizzle-orm';
import type { Executor } from '../../db/client.ts';
import { academySettings } from '../../db/schema.ts';

export type TSettingsRow = typeof academySettings.$inferSelect;

/** The one row (the migration inserts it); locked for the rest of the transaction when `forUpdate`. */
export async function findSettings(db: Executor, forUpdate = false): Promise<TSettingsRow | undefined> {
  const query = db.select().from(academySettings).where(eq(academySettings.id, 'academy'));
  const [row] = forUpdate ? await query.for('update') : await query;
  return row;
}

export async function updateSettings(
  db: Executor,
  values: Partial<Pick<TSettingsRow, 'staffSecondFactorRequired' | 'retentionYears'>> & { updatedBy: string },
): Promise<TSettingsRow> {
  const [row] = await db
    .insert(academySettings)
    .values({ id: 'academy', ...values })
    .onConflictDoUpdate({ target: academySettings.id, set: { ...values, updatedAt: new Date() } })
    .returning();
  return row!;
}
