import { staffMay } from '../../../shared/staff-roles.ts';
import { MESSAGES } from '../../../shared/messages.ts';
import { addMonths } from '../../../shared/calendar.ts';
import { EXPIRY_WARNING_MONTHS } from '../../../shared/profile-fields.ts';
import {
  idTypeLabel,
  isoToday,
  PROFILE_FILES,
  PROFILE_LIST_DEFAULT_PAGE_SIZE,
  ZProfileCreateFields,
  ZProfileFields,
  type TExpiryStatus,
  type TProfile,
  type TProfileFields,
  type TProfileFile,
  type TProfileFileField,
  type TProfileListQuery,
  type TProfilePage,
  type TProfileSaved,
} from '../../../shared/schemas/profile.ts';
import { personName } from '../../../shared/names.ts';
import type { Executor } from '../../db/client.ts';
import type { AppDeps } from '../../deps.ts';
import { AppError } from '../../lib/errors.ts';
import { FILE_KINDS } from '../../lib/files/file-kinds.ts';
import { firstFile, type TUploadedForm, type TUploadField } from '../../lib/files/multipart.ts';
import type { TFileArea } from '../../lib/files/storage.ts';
import { describeIssues } from '../../lib/validation.ts';
import { inBatches, type TWholeList } from '../../lib/whole-list.ts';
import { fileUrl } from '../../lib/files/file-urls.ts';
import type { TSessionUser } from '../../lib/session-user.ts';
import { readPage } from '../../lib/paging.ts';
import {
  existsForUser,
  findByUserId,
  findHolder,
  findFileNames,
  findPage,
  inTransaction,
  insertIfAbsent,
  updateByUserId,
  type TProfileFileNames,
  type TProfileRow,
} from './profiles.repository.ts';
import { countDuplicates, findLatestVerified, lockProfileOfUser } from './identity.repository.ts';
import { identityValues, recordLearnerSave, recordSubmission } from './identity-changes.ts';

type Deps = Pick<AppDeps, 'db' | 'env' | 'files' | 'jwtSecret' | 'logger'>;

const FILE_STORAGE: Record<TProfileFileField, { area: TFileArea; column: keyof TProfileFileNames; kinds: TUploadField['kinds'] }> = {
  profilePicture: { area: 'profile_pictures', column: 'profilePictureFile', kinds: ['jpeg', 'png'] },
  idDocument: { area: 'id_documents', column: 'idDocumentFile', kinds: ['pdf', 'jpeg', 'png'] },
  signature: { area: 'signatures', column: 'signatureFile', kinds: ['pdf', 'jpeg', 'png'] },
};
const FILE_FIELDS = Object.keys(FILE_STORAGE) as TProfileFileField[];

/** What each file may be: the type decided from its bytes, the size from the configuration. */
export function profileUploadRules(env: Pick<AppDeps['env'], 'PROFILE_FILE_MAX_BYTES'>): Record<TProfileFileField, TUploadField> {
  const bytes = env.PROFILE_FILE_MAX_BYTES;
  const size = bytes >= 1024 * 1024 ? `${Math.round((bytes / (1024 * 1024)) * 10) / 10} MB` : `${Math.round(bytes / 1024)} KB`;
  const rule = (field: TProfileFileField): TUploadField => ({
    area: FILE_STORAGE[field].area,
    kinds: FILE_STORAGE[field].kinds,
    maxBytes: env.PROFILE_FILE_MAX_BYTES,
    tooLarge: MESSAGES.profile.fileTooLarge(PROFILE_FILES[field].label, size),
    wrongType: PROFILE_FILES[field].wrongType,
    cleanImages: true,
  });
  return { profilePicture: rule('profilePicture'), idDocument: rule('idDocument'), signature: rule('signature') };
}

// ---------------------------------------------------------------------------------------------
// Reading

/** Expired before today, expiring when it falls within the warning window, otherwise valid. */
export function expiryStatus(expiryDate: string, today: string = isoToday()): TExpiryStatus {
  if (expiryDate < today) return 'expired';
  if (expiryDate <= addMonths(today, EXPIRY_WARNING_MONTHS)) return 'expiring';
  return 'valid';
}

function fileOf(deps: Pick<AppDeps, 'jwtSecret'>, area: TFileArea, name: string, now: Date): TProfileFile {
  const ext = name.split('.').pop();
  const kind = Object.values(FILE_KINDS).find((k) => k.ext === ext);
  return {
    filename: name,
    url: fileUrl(deps, area, name, now),
    contentType: kind?.mime ?? 'application/octet-stream',
    isImage: kind?.image ?? false,
  };
}

/**
 * The profile as its viewer sees it. Only called once the service has decided the viewer is the
 * owner or an administrator, since it signs the file URLs.
 */
function toProfile(
  deps: Pick<AppDeps, 'jwtSecret'>,
  row: TProfileRow,
  viewer: TSessionUser,
  now = new Date(),
  duplicates?: { indosNo: number; passportNumber: number },
): TProfile {
  const { profile, creator } = row;
  const staff = viewer.role === 'admin';
  const today = isoToday(now);
  const passportExpiryStatus = expiryStatus(profile.passportExpiryDate, today);
  const cdcExpiryStatus = expiryStatus(profile.cdcExpiryDate, today);
  return {
    id: profile.id,
    userId: profile.userId,
    name: profile.name,
    gradeNumber: profile.gradeNumber,
    phone: profile.phone,
    dateOfBirth: profile.dateOfBirth,
    passportNumber: profile.passportNumber,
    passportExpiryDate: profile.passportExpiryDate,
    passportExpiryStatus,
    indosNo: profile.indosNo,
    cdcNumber: profile.cdcNumber,
    cdcExpiryDate: profile.cdcExpiryDate,
    cdcExpiryStatus,
    documentsExpiring: passportExpiryStatus !== 'valid' || cdcExpiryStatus !== 'valid',
    idType: profile.idType,
    idTypeLabel: idTypeLabel(profile.idType),
    streetAddress: profile.streetAddress,
    city: profile.city,
    state: profile.state,
    country: profile.country,
    zipCode: profile.zipCode,
    consentAcceptedAt: profile.consentAcceptedAt?.toISOString() ?? null,
    createdAt: profile.createdAt.toISOString(),
    updatedAt: profile.updatedAt.toISOString(),
    profilePicture: fileOf(deps, 'profile_pictures', profile.profilePictureFile, now),
    idDocument: fileOf(deps, 'id_documents', profile.idDocumentFile, now),
    signature: fileOf(deps, 'signatures', profile.signatureFile, now),
    identity: {
      state: profile.identityState,
      version: profile.identityVersion,
      checkedAt: profile.identityCheckedAt?.toISOString() ?? null,
      returnReason: profile.identityReturnReason,
      // Staff see who checked it and whether another account shares its numbers; the learner never does.
      ...(staff ? { checkedByName: row.checker ? personName(row.checker) : null, ...(duplicates ? { duplicates } : {}) } : {}),
    },
    creator: {
      firstName: creator.firstName,
      lastName: creator.lastName,
      ...(viewer.role === 'admin' ? { email: creator.email } : {}),
    },
  };
}

/** The caller's own profile, or null when they have none yet. */
export async function getMyProfile(deps: Deps, user: TSessionUser): Promise<TProfile | null> {
  const row = await findByUserId(deps.db, user.id);
  return row ? toProfile(deps, row, user) : null;
}

/** The caller's own profile; none yet is a 404 (the spec's screens show the creation form then). */
export async function requireMyProfile(deps: Deps, user: TSessionUser): Promise<TProfile> {
  const profile = await getMyProfile(deps, user);
  if (!profile) throw new AppError('NOT_FOUND', MESSAGES.profile.notFound);
  return profile;
}

/**
 * A user's profile: staff who read accounts see anyone's, a learner only their own. Someone else's id
 * answers exactly like a missing profile.
 */
export async function getProfileOfUser(deps: Deps, viewer: TSessionUser, userId: string): Promise<TProfile> {
  // Staff whose role reads accounts see anyone's; anyone else only their own (decision 067).
  if (!staffMay(viewer.staffRole, 'accounts.read') && viewer.id !== userId) throw new AppError('NOT_FOUND', MESSAGES.profile.notFound);
  const row = await findByUserId(deps.db, userId);
  if (!row) throw new AppError('NOT_FOUND', MESSAGES.profile.notFound);
  const duplicates = viewer.role === 'admin' ? (await countDuplicates(deps.db, [row.profile.id])).get(row.profile.id) : undefined;
  return toProfile(deps, row, viewer, new Date(), duplicates);
}

/** A document number as typed: letters and digits only, upper case (spaces and hyphens vary). */
const documentKey = (value: string) => value.replace(/[^\p{L}\p{N}]/gu, '').toUpperCase();

/**
 * Whether the given date of birth and INDOS number (each only when given, at least one) are those
 * on the user's profile. Public certificate verification asks this and learns nothing else of
 * the profile; no profile matches nothing.
 */
export async function profileMatches(
  deps: Pick<AppDeps, 'db'>,
  userId: string,
  given: { dateOfBirth?: string | undefined; indosNo?: string | undefined },
): Promise<boolean> {
  if (!given.dateOfBirth && !given.indosNo) return false;
  const row = await findByUserId(deps.db, userId);
  if (!row) return false;
  if (given.dateOfBirth && given.dateOfBirth !== row.profile.dateOfBirth) return false;
  if (given.indosNo && (!documentKey(given.indosNo) || documentKey(given.indosNo) !== documentKey(row.profile.indosNo))) return false;
  return true;
}

/**
 * What a certificate prints of its holder: the name and documents a member of staff verified (the
 * account's name where none were), each missing one null, with who verified them and when.
 */
export type THolderDocuments = {
  name: string;
  dateOfBirth: string | null;
  indosNo: string | null;
  passportNumber: string | null;
  cdcNumber: string | null;
  verifiedByName: string | null;
  verifiedAt: Date | null;
};

/**
 * A certificate's holder, read inside the caller's transaction. The documents are the verified
 * ones only: the profile's own when it is verified, else the values last verified before a
 * change (its history), else none. `profileApproved` when the account is approved and the
 * profile's identity is verified with INDOS, date of birth and passport.
 */
export async function certificateHolder(db: Executor, userId: string): Promise<{ documents: THolderDocuments; profileApproved: boolean } | undefined> {
  const row = await findHolder(db, userId);
  if (!row) return undefined;
  const present = (value: string | null | undefined) => value?.trim() || null;
  const accountName = personName(row);
  let documents: THolderDocuments = { name: accountName, dateOfBirth: null, indosNo: null, passportNumber: null, cdcNumber: null, verifiedByName: null, verifiedAt: null };
  if (row.identityState === 'verified') {
    documents = {
      name: present(row.profileName) ?? accountName,
      dateOfBirth: row.dateOfBirth,
      indosNo: present(row.indosNo),
      passportNumber: present(row.passportNumber),
      cdcNumber: present(row.cdcNumber),
      verifiedByName: row.checkerFirstName !== null && row.checkerLastName !== null ? personName({ firstName: row.checkerFirstName, lastName: row.checkerLastName }) : null,
      verifiedAt: row.identityCheckedAt,
    };
  } else if (row.identityState !== null) {
    const verified = await findLatestVerified(db, userId);
    if (verified) {
      documents = {
        name: present(verified.name) ?? accountName,
        dateOfBirth: verified.dateOfBirth,
        indosNo: present(verified.indosNo),
        passportNumber: present(verified.passportNumber),
        cdcNumber: present(verified.cdcNumber),
        verifiedByName: verified.checkedByName,
        verifiedAt: verified.createdAt,
      };
    }
  }
  const profileApproved =
    row.approvedAt !== null && row.identityState === 'verified' && Boolean(documents.indosNo && documents.dateOfBirth && documents.passportNumber && row.profileName);
  return { documents, profileApproved };
}

/** Administrators: every profile, newest first, searched on the server and paged. */
export async function listProfiles(deps: Deps, admin: TSessionUser, query: TProfileListQuery): Promise<TProfilePage> {
  if (!staffMay(admin.staffRole, 'accounts.read')) throw new AppError('FORBIDDEN', MESSAGES.common.forbidden);
  const search = query.search?.trim() || undefined;
  const now = new Date();
  const page = await readPage(query, PROFILE_LIST_DEFAULT_PAGE_SIZE, (window) => findPage(deps.db, { search, ...window }), (row) => row);
  const duplicates = await countDuplicates(deps.db, page.items.map((row) => row.profile.id));
  return { ...page, items: page.items.map((row) => toProfile(deps, row, admin, now, duplicates.get(row.profile.id))) };
}

/** Administrators: every profile matching the search, newest first, a batch at a time. */
export async function allProfiles(deps: Deps, admin: TSessionUser, search: string | undefined): Promise<TWholeList<TProfile>> {
  if (!staffMay(admin.staffRole, 'accounts.read')) throw new AppError('FORBIDDEN', MESSAGES.common.forbidden);
  const term = search?.trim() || undefined;
  const { total } = await findPage(deps.db, { search: term, limit: 0, offset: 0 });
  const batches = inBatches(async (limit, offset) => {
    const now = new Date();
    const { rows } = await findPage(deps.db, { search: term, limit, offset });
    const duplicates = await countDuplicates(deps.db, rows.map((row) => row.profile.id));
    return rows.map((row) => toProfile(deps, row, admin, now, duplicates.get(row.profile.id)));
  });
  return { total, batches };
}

/** The names of the files the profiles keep in one area (for the sweep of left-over uploads). */
export async function storedProfileFileNames(deps: Pick<AppDeps, 'db'>, area: TFileArea): Promise<ReadonlySet<string>> {
  const field = FILE_FIELDS.find((candidate) => FILE_STORAGE[candidate].area === area);
  if (!field) return new Set();
  return new Set(await findFileNames(deps.db, FILE_STORAGE[field].column));
}

// ---------------------------------------------------------------------------------------------
// Writing

function invalid(issues: ReadonlyArray<{ message: string; path: ReadonlyArray<PropertyKey> }>): AppError {
  const { message, fields } = describeIssues(issues);
  return new AppError('BAD_REQUEST', message, { fields });
}

function requireVerified(user: TSessionUser) {
  if (!user.verified) throw new AppError('FORBIDDEN', MESSAGES.common.forbidden);
}

function columnsOf(fields: TProfileFields) {
  return {
    name: fields.name,
    gradeNumber: fields.gradeNumber,
    phone: fields.phone,
    dateOfBirth: fields.dateOfBirth,
    passportNumber: fields.passportNumber,
    passportExpiryDate: fields.passportExpiryDate,
    indosNo: fields.indosNo,
    cdcNumber: fields.cdcNumber,
    cdcExpiryDate: fields.cdcExpiryDate,
    idType: fields.idType,
    streetAddress: fields.streetAddress,
    city: fields.city,
    state: fields.state,
    country: fields.country,
    zipCode: fields.zipCode,
  };
}

/**
 * Refusals that need no upload: called before the body is read, so megabytes of files that could
 * not be kept anyway are never stored. createProfile checks again.
 */
export async function checkProfileCanBeCreated(deps: Deps, user: TSessionUser): Promise<void> {
  requireVerified(user);
  if (await existsForUser(deps.db, user.id)) throw new AppError('CONFLICT', MESSAGES.profile.alreadyExists);
}

/** The same before an update. */
export async function checkProfileCanBeUpdated(deps: Deps, user: TSessionUser): Promise<void> {
  requireVerified(user);
  if (!(await existsForUser(deps.db, user.id))) throw new AppError('NOT_FOUND', MESSAGES.profile.notFound);
}

/**
 * Creates the caller's profile from the form's fields and its three files (already stored, under
 * profileUploadRules; the caller removes them when this throws). The profile always belongs to
 * the caller: ids, roles or approvals in the form are ignored.
 */
export async function createProfile(deps: Deps, user: TSessionUser, form: TUploadedForm<TProfileFileField>, address: string | null = null): Promise<TProfileSaved> {
  await checkProfileCanBeCreated(deps, user);
  const parsed = ZProfileCreateFields.safeParse(form.fields);
  const issues: Array<{ message: string; path: ReadonlyArray<PropertyKey> }> = parsed.success ? [] : [...parsed.error.issues];
  for (const field of FILE_FIELDS) {
    if (!firstFile(form, field)) issues.push({ message: MESSAGES.profile.required(PROFILE_FILES[field].label), path: [field] });
  }
  if (!parsed.success || issues.length > 0) throw invalid(issues);

  // The profile is sent for its identity check as it is created, with its history row and audit entry.
  const created = await inTransaction(deps.db, async (tx) => {
    const row = await insertIfAbsent(tx, {
      userId: user.id,
      ...columnsOf(parsed.data),
      profilePictureFile: firstFile(form, 'profilePicture')!.name,
      idDocumentFile: firstFile(form, 'idDocument')!.name,
      signatureFile: firstFile(form, 'signature')!.name,
      consentAcceptedAt: parsed.data.consent ? new Date() : null,
    });
    if (row) await recordSubmission(tx, user, address, row);
    return row;
  });
  // Two submissions at once: the unique index lets one through; the other's files go.
  if (!created) throw new AppError('CONFLICT', MESSAGES.profile.alreadyExists);
  deps.logger.info({ userId: user.id, profileId: created.id }, 'profile created');
  return { message: MESSAGES.profile.submitted, data: await requireMyProfile(deps, user) };
}

/**
 * Replaces the caller's profile fields; each file sent (already stored; the caller removes it when
 * this throws) replaces the stored one, which is removed only after the change has committed
 * (until then the old file is still the profile's).
 */
export async function updateProfile(deps: Deps, user: TSessionUser, form: TUploadedForm<TProfileFileField>, address: string | null = null): Promise<TProfileSaved> {
  await checkProfileCanBeUpdated(deps, user);
  const parsed = ZProfileFields.safeParse(form.fields);
  if (!parsed.success) throw invalid(parsed.error.issues);

  const replaced = await inTransaction(deps.db, async (tx) => {
    const current = await lockProfileOfUser(tx, user.id);
    if (!current) throw new AppError('NOT_FOUND', MESSAGES.profile.notFound);
    const files: Partial<TProfileFileNames> = {};
    const old: Array<{ area: TFileArea; name: string }> = [];
    for (const field of FILE_FIELDS) {
      const file = firstFile(form, field);
      if (!file) continue;
      const { area, column } = FILE_STORAGE[field];
      files[column] = file.name;
      old.push({ area, name: current[column] });
    }
    const columns = { ...columnsOf(parsed.data), ...files };
    await updateByUserId(tx, user.id, columns);
    // A change to an identity field sends the profile back for a check (a returned one goes back whatever changed).
    await recordLearnerSave(tx, user, address, current, identityValues({ ...current, ...columns }));
    return old;
  });

  // After the commit: a failure here leaves an unreferenced file, never a profile without its file.
  await Promise.all(
    replaced.map(({ area, name }) =>
      deps.files.remove(area, name).catch((err: unknown) => deps.logger.warn({ err, area, name }, 'replaced profile file not removed')),
    ),
  );
  deps.logger.info({ userId: user.id, replacedFiles: replaced.length }, 'profile updated');
  return { message: MESSAGES.profile.updated, data: await requireMyProfile(deps, user) };
}
