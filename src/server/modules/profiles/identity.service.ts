import { MESSAGES } from '../../../shared/messages.ts';
import type {
  TIdentityCheckView,
  TIdentityDecision,
  TIdentityQueuePage,
  TIdentityQueueQuery,
} from '../../../shared/schemas/identity.ts';
import type { AppDeps } from '../../deps.ts';
import { AppError } from '../../lib/errors.ts';
import { readPage } from '../../lib/paging.ts';
import type { TSessionUser, TStaffActor } from '../../lib/session-user.ts';
import { actorOfStaff, recordAudit } from '../audit/audit.service.ts';
import { identityValues } from './identity-changes.ts';
import {
  countDuplicates,
  findDuplicatesOf,
  findIdentityHistory,
  findLatestHistoryVersion,
  findQueuePage,
  insertIdentityVersion,
  lockProfileOfUser,
  setIdentity,
  type TProfileRecord,
} from './identity.repository.ts';
import { inTransaction } from './profiles.repository.ts';
import { getProfileOfUser } from './profiles.service.ts';

/*
 * The identity check by staff (permission identity.check): the queue, the check screen's view, and
 * the two decisions. A decision names the identity version its member of staff saw; the profile's
 * row is locked while it is made, so of two decisions (or a decision and the learner's change) one
 * wins and the other finds the version moved on (409). Each writes its history row and its audit
 * entry in the same transaction.
 */

type Deps = Pick<AppDeps, 'db' | 'env' | 'files' | 'jwtSecret' | 'logger'>;
const I = MESSAGES.identity;

/** Awaiting check first (oldest change first), each with how many other accounts share its INDOS or passport number. */
export async function identityQueue(deps: Deps, query: TIdentityQueueQuery): Promise<TIdentityQueuePage> {
  const page = await readPage(
    query,
    20,
    (window) => findQueuePage(deps.db, { state: query.state, search: query.search?.trim() || undefined, ...window }),
    (row) => row,
  );
  const duplicates = await countDuplicates(deps.db, page.items.map((row) => row.id));
  return {
    ...page,
    items: page.items.map((row) => ({
      userId: row.userId,
      name: row.name,
      email: row.email,
      indosNo: row.indosNo,
      passportNumber: row.passportNumber,
      state: row.state,
      version: row.version,
      changedAt: row.changedAt.toISOString(),
      checkedAt: row.checkedAt?.toISOString() ?? null,
      duplicates: duplicates.get(row.id) ?? { indosNo: 0, passportNumber: 0 },
    })),
  };
}

/** The check screen: the profile with its documents' signed links, the accounts sharing a number, the history (newest first). */
export async function identityCheckView(deps: Deps, viewer: TSessionUser, userId: string): Promise<TIdentityCheckView> {
  const profile = await getProfileOfUser(deps, viewer, userId);
  const record = { id: profile.id, indosNo: profile.indosNo, passportNumber: profile.passportNumber };
  const [duplicates, history] = await Promise.all([findDuplicatesOf(deps.db, record), findIdentityHistory(deps.db, profile.id)]);
  return {
    profile,
    duplicates: duplicates.map((row) => ({
      userId: row.userId,
      name: row.name,
      email: row.email,
      state: row.state,
      fields: [...(row.sameIndos ? (['indosNo'] as const) : []), ...(row.samePassport ? (['passportNumber'] as const) : [])],
    })),
    history: history.map((row) => ({
      id: row.id,
      version: row.version,
      state: row.state,
      name: row.name,
      dateOfBirth: row.dateOfBirth,
      indosNo: row.indosNo,
      passportNumber: row.passportNumber,
      passportExpiryDate: row.passportExpiryDate,
      cdcNumber: row.cdcNumber,
      checkedByName: row.checkedByName,
      reason: row.reason,
      at: row.createdAt.toISOString(),
    })),
  };
}

/** The locked profile the decision is about, refused unless it is awaiting check at the version the member of staff saw. */
async function lockForDecision(tx: Parameters<Parameters<typeof inTransaction>[1]>[0], userId: string, version: number): Promise<TProfileRecord> {
  const profile = await lockProfileOfUser(tx, userId);
  if (!profile) throw new AppError('NOT_FOUND', MESSAGES.profile.notFound);
  if (profile.identityVersion !== version) throw new AppError('CONFLICT', I.stale);
  if (profile.identityState !== 'awaiting_check') throw new AppError('CONFLICT', I.notAwaiting);
  return profile;
}

type TDecision = { state: 'verified' } | { state: 'returned'; reason: string };

async function decide(deps: Deps, actor: TStaffActor, viewer: TSessionUser, input: { userId: string; version: number; duplicatesAcknowledged?: boolean | undefined }, decision: TDecision): Promise<TIdentityDecision> {
  await inTransaction(deps.db, async (tx) => {
    const profile = await lockForDecision(tx, input.userId, input.version);
    if (decision.state === 'verified' && !input.duplicatesAcknowledged && (await findDuplicatesOf(tx, profile)).length > 0) {
      throw new AppError('CONFLICT', I.duplicatesUnacknowledged);
    }
    const values = identityValues(profile);
    const version = profile.identityVersion + 1;
    const at = new Date();
    const reason = decision.state === 'returned' ? decision.reason : null;
    // A profile kept before its history began: the values checked go in as they were sent.
    if ((await findLatestHistoryVersion(tx, profile.id)) !== profile.identityVersion) {
      await insertIdentityVersion(tx, { profileId: profile.id, userId: profile.userId, version: profile.identityVersion, state: 'awaiting_check', ...values });
    }
    await setIdentity(tx, profile.id, { identityState: decision.state, identityVersion: version, identityCheckedBy: actor.id, identityCheckedAt: at, identityReturnReason: reason });
    await insertIdentityVersion(tx, { profileId: profile.id, userId: profile.userId, version, state: decision.state, ...values, checkedBy: actor.id, checkedByName: actor.name, reason, createdAt: at });
    await recordAudit(
      tx,
      actorOfStaff(actor),
      {
        action: decision.state === 'verified' ? 'identity.verify' : 'identity.return',
        subjectType: 'profile',
        subjectId: profile.id,
        learnerId: profile.userId,
        before: { state: profile.identityState, version: profile.identityVersion },
        after: { state: decision.state, version, ...values, ...(reason ? { reason } : {}) },
      },
      at,
    );
  });
  deps.logger.info({ userId: input.userId, state: decision.state, by: actor.id }, 'identity checked');
  return { message: decision.state === 'verified' ? I.verified : I.returned, view: await identityCheckView(deps, viewer, input.userId) };
}

/** Verify the identity version the member of staff checked against the documents. */
export function verifyIdentity(deps: Deps, actor: TStaffActor, viewer: TSessionUser, input: { userId: string; version: number; duplicatesAcknowledged?: boolean | undefined }): Promise<TIdentityDecision> {
  return decide(deps, actor, viewer, input, { state: 'verified' });
}

/** Return the profile to the learner with the reason they will read. */
export function returnIdentity(deps: Deps, actor: TStaffActor, viewer: TSessionUser, input: { userId: string; version: number; reason: string }): Promise<TIdentityDecision> {
  return decide(deps, actor, viewer, input, { state: 'returned', reason: input.reason });
}
