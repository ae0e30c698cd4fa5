import type { AppDeps } from '../../deps.ts';
import type { TStaffActor } from '../../lib/session-user.ts';
import { actorOfStaff, recordAudit } from '../audit/audit.service.ts';
import { findSettings, updateSettings } from './settings.repository.ts';

type Deps = Pick<AppDeps, 'db'>;

/** The academy's settings (decision 067), as the owner set them. */
export type TAcademySettings = {
  /** Every staff sign-in needs a second factor (the default). */
  staffSecondFactorRequired: boolean;
  /** Years issued certificates and the records behind them are kept after a learner's erasure. */
  retentionYears: number;
};

const DEFAULTS: TAcademySettings = { staffSecondFactorRequired: true, retentionYears: 10 };

export async function getAcademySettings(deps: Deps): Promise<TAcademySettings> {
  const row = await findSettings(deps.db);
  return row ? { staffSecondFactorRequired: row.staffSecondFactorRequired, retentionYears: row.retentionYears } : DEFAULTS;
}

/** The owner changes the settings; the change and its audit entry commit together. */
export async function changeAcademySettings(deps: Deps, actor: TStaffActor, change: Partial<TAcademySettings>): Promise<TAcademySettings> {
  return deps.db.transaction(async (tx) => {
    const before = (await findSettings(tx, true)) ?? { ...DEFAULTS };
    const row = await updateSettings(tx, { ...change, updatedBy: actor.id });
    const after: TAcademySettings = { staffSecondFactorRequired: row.staffSecondFactorRequired, retentionYears: row.retentionYears };
    await recordAudit(tx, actorOfStaff(actor), {
      action: 'settings.change',
      subjectType: 'settings',
      subjectId: 'academy',
      before: { staffSecondFactorRequired: before.staffSecondFactorRequired, retentionYears: before.retentionYears },
      after,
    });
    return after;
  });
}
