import type { IDENTITY_TEXT_FIELDS, TIdentityState } from '../../../shared/identity.ts';
import type { Executor } from '../../db/client.ts';
import type { TSessionUser } from '../../lib/session-user.ts';
import { actorOfUser, recordAudit } from '../audit/audit.service.ts';
import { findLatestHistoryVersion, insertIdentityVersion, setIdentity, type TProfileRecord } from './identity.repository.ts';

/*
 * What a learner's own saves do to the identity check, inside the save's transaction: a new
 * profile is sent for a check; a change to an identity field of a profile verified or awaiting
 * check sends it back for one (its earlier values stay in the history); any save of a returned
 * profile sends it again. Each writes its history row and its audit entry with the save.
 */

/** The identity values of a profile, as the history and the audit entries record them. */
export function identityValues(profile: Pick<TProfileRecord, (typeof IDENTITY_TEXT_FIELDS)[number] | 'profilePictureFile' | 'idDocumentFile'>) {
  return {
    name: profile.name,
    dateOfBirth: profile.dateOfBirth,
    indosNo: profile.indosNo,
    passportNumber: profile.passportNumber,
    passportExpiryDate: profile.passportExpiryDate,
    cdcNumber: profile.cdcNumber,
    profilePictureFile: profile.profilePictureFile,
    idDocumentFile: profile.idDocumentFile,
  };
}
type TIdentityValues = ReturnType<typeof identityValues>;

/** Whether any identity value differs (a replaced photograph or ID document counts). */
export function identityChanged(before: TIdentityValues, after: TIdentityValues): boolean {
  return (Object.keys(before) as Array<keyof TIdentityValues>).some((key) => before[key] !== after[key]);
}

const auditValues = (values: TIdentityValues, state: TIdentityState, version: number) => ({ state, version, ...values });

/** A new profile, inserted in `tx`: awaiting check, its first history row, `identity.submit`. */
export async function recordSubmission(tx: Executor, user: TSessionUser, address: string | null, profile: TProfileRecord): Promise<void> {
  const values = identityValues(profile);
  await setIdentity(tx, profile.id, { identityState: 'awaiting_check', identityVersion: 1, identityCheckedBy: null, identityCheckedAt: null, identityReturnReason: null });
  await insertIdentityVersion(tx, { profileId: profile.id, userId: profile.userId, version: 1, state: 'awaiting_check', ...values });
  await recordAudit(tx, actorOfUser(user, address), {
    action: 'identity.submit',
    subjectType: 'profile',
    subjectId: profile.id,
    learnerId: profile.userId,
    after: auditValues(values, 'awaiting_check', 1),
  });
}

/**
 * After the learner's save of `before` (locked in `tx`) wrote `after`: sends the profile for a
 * check when the save asks for one, with its history row and audit entry; otherwise nothing.
 */
export async function recordLearnerSave(tx: Executor, user: TSessionUser, address: string | null, before: TProfileRecord, after: TIdentityValues): Promise<void> {
  const earlier = identityValues(before);
  const resent = before.identityState === 'returned' || before.identityState === 'unverified';
  if (!resent && !identityChanged(earlier, after)) return;
  // A profile kept before its history began: its earlier values go in first, as they stood.
  if ((await findLatestHistoryVersion(tx, before.id)) !== before.identityVersion) {
    await insertIdentityVersion(tx, {
      profileId: before.id,
      userId: before.userId,
      version: before.identityVersion,
      state: before.identityState,
      ...earlier,
      checkedBy: before.identityCheckedBy,
      reason: before.identityReturnReason,
    });
  }
  const version = before.identityVersion + 1;
  await setIdentity(tx, before.id, { identityState: 'awaiting_check', identityVersion: version, identityCheckedBy: null, identityCheckedAt: null, identityReturnReason: null });
  await insertIdentityVersion(tx, { profileId: before.id, userId: before.userId, version, state: 'awaiting_check', ...after });
  await recordAudit(tx, actorOfUser(user, address), {
    action: resent ? 'identity.submit' : 'identity.change',
    subjectType: 'profile',
    subjectId: before.id,
    learnerId: before.userId,
    before: auditValues(earlier, before.identityState, before.identityVersion),
    after: auditValues(after, 'awaiting_check', version),
  });
}
