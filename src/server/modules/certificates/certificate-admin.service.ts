import { addDays, utcDay } from '../../../shared/calendar.ts';
import { MESSAGES } from '../../../shared/messages.ts';
import {
  ADMIN_CERTIFICATES_PAGE_SIZE,
  type TAdminCertificatePage,
  type TAdminCertificateQuery,
  type TAdminCertificateExportQuery,
  type TAdminCertificateRow,
  type TRegulatorBatch,
  type TRegulatorBatchQuery,
  type TRegulatorHolderField,
  type TRegulatorRow,
} from '../../../shared/schemas/certificate.ts';
import type { AppDeps } from '../../deps.ts';
import { AppError } from '../../lib/errors.ts';
import { readPage } from '../../lib/paging.ts';
import type { TWholeList } from '../../lib/whole-list.ts';
import type { TStaffActor } from '../../lib/session-user.ts';
import { actorOfStaff, recordDownload } from '../audit/audit.service.ts';
import { expiringWindowDays, stateCondition, type TStateCondition } from './certificate-state.ts';
import { adminCertificateRows } from './certificates.service.ts';
import {
  findBatchCourse,
  findIssuedNotRevoked,
  findAllIds,
  findPageIds,
  type TBatchCertificate,
  type TCertificateListFilters,
} from './certificate-admin.repository.ts';

const A = MESSAGES.certificateAdmin;
type Deps = Pick<AppDeps, 'db' | 'env'>;

// ---------------------------------------------------------------------------------------------
// The administrators' certificate list

/**
 * The list's filters as conditions on rows, for the UTC day `today`: the state through the one
 * rule (`stateCondition`), and "expiring within N days" as live certificates whose last valid day
 * is from today to today + N.
 */
function listFilters(deps: Deps, query: TAdminCertificateExportQuery, today: string): TCertificateListFilters {
  const conditions: TStateCondition[] = [];
  if (query.state) conditions.push(stateCondition(query.state, today, expiringWindowDays(deps.env.CERTIFICATE_REMINDER_DAYS)));
  if (query.expiringWithinDays !== undefined) {
    conditions.push({ kind: 'live', validUntilFrom: today, validUntilTo: addDays(today, query.expiringWithinDays) });
  }
  return { search: query.search, courseId: query.courseId, conditions };
}

/**
 * Certificates for administrators: searched by the learner's name, e-mail, INDOS or the
 * certificate's number, filtered by course, state and "expiring within N days", newest issue
 * first, a page at a time. Three queries a page, however many rows or matches: the page's ids
 * with the count, then their rows and their latest reminders.
 */
export async function adminCertificates(deps: Deps, query: TAdminCertificateQuery): Promise<TAdminCertificatePage> {
  const today = utcDay();
  const filters = listFilters(deps, query, today);
  return readPage(
    query,
    ADMIN_CERTIFICATES_PAGE_SIZE,
    async (window) => {
      const { ids, total } = await findPageIds(deps.db, filters, window);
      return { rows: await adminCertificateRows(deps, ids), total };
    },
    (row) => row,
  );
}

/** How many certificates one batch of the list's CSV reads at a time. */
const EXPORT_BATCH_SIZE = 500;

/**
 * Every certificate matching the list's filters, for its CSV, newest issue first. Which ones is
 * read once, before the file starts (a failure is an error, never a file cut short), so a
 * certificate issued or revoked during a long download neither shifts a row into two batches nor
 * out of all of them; their rows are then read a batch at a time as the file is written.
 */
export async function allAdminCertificates(deps: Deps, query: TAdminCertificateExportQuery): Promise<TWholeList<TAdminCertificateRow>> {
  const ids = await findAllIds(deps.db, listFilters(deps, query, utcDay()));
  async function* batches() {
    for (let start = 0; start < ids.length; start += EXPORT_BATCH_SIZE) {
      yield await adminCertificateRows(deps, ids.slice(start, start + EXPORT_BATCH_SIZE));
    }
  }
  return { total: ids.length, batches: batches() };
}

// ---------------------------------------------------------------------------------------------
// The regulator's batch

/**
 * The holder's fields as the regulator's row names them, read from what the certificate printed;
 * none when no member of staff verified them (the row lists them all as missing).
 */
function holderFields(certificate: TBatchCertificate): Record<TRegulatorHolderField, string> {
  if (!certificate.holderVerifiedAt) return { indosNo: '', nameAsInPassport: '', dateOfBirth: '', passportNumber: '', cdcNumber: '' };
  return {
    indosNo: certificate.holderIndosNo?.trim() ?? '',
    nameAsInPassport: certificate.holderName.trim(),
    dateOfBirth: certificate.holderDateOfBirth ?? '',
    passportNumber: certificate.holderPassportNumber?.trim() ?? '',
    cdcNumber: certificate.holderCdcNumber?.trim() ?? '',
  };
}

function toRegulatorRow(certificate: TBatchCertificate, course: { code: string | null; approvalNumber: string | null }, query: TRegulatorBatchQuery): TRegulatorRow {
  const holder = holderFields(certificate);
  return {
    certificateId: certificate.id,
    userId: certificate.userId,
    ...holder,
    // As printed; a certificate issued before the course had them carries the course's current ones.
    courseCode: certificate.courseCode ?? course.code ?? '',
    approvalNumber: certificate.approvalNumber ?? course.approvalNumber ?? '',
    batchStart: query.from,
    batchEnd: query.to,
    certificateNumber: certificate.number,
    issueDate: utcDay(certificate.issuedAt),
    validUntil: certificate.validUntil ?? '',
    verified: certificate.holderVerifiedAt !== null,
    verifiedBy: certificate.holderVerifiedAt ? (certificate.holderVerifiedByName ?? '') : '',
    verifiedOn: certificate.holderVerifiedAt ? utcDay(certificate.holderVerifiedAt) : '',
    missing: (Object.keys(holder) as TRegulatorHolderField[]).filter((field) => holder[field] === ''),
  };
}

/** The first instant of a UTC day. */
const startOfDay = (day: string) => new Date(`${day}T00:00:00Z`);

/**
 * A course's completions in a batch for the regulator: its certificates issued on the days from
 * `from` to `to` (inclusive, UTC) that are not revoked (one superseded since by its refresher was
 * still completed in this batch), in order of issue, each as printed: the holder's details from
 * the certificate, never the profile as it is now, so the file says what the certificate says. A
 * second download of the same batch gives the same rows in the same order. An unknown course is
 * bad input (400), as is a range that ends before it starts (the query's schema refuses that).
 */
export async function regulatorBatch(deps: Pick<AppDeps, 'db'>, query: TRegulatorBatchQuery): Promise<TRegulatorBatch> {
  const course = await findBatchCourse(deps.db, query.courseId);
  if (!course) throw new AppError('BAD_REQUEST', A.unknownCourse, { fields: { courseId: A.unknownCourse } });
  const certificates = await findIssuedNotRevoked(deps.db, course.id, startOfDay(query.from), startOfDay(addDays(query.to, 1)));
  return {
    course,
    from: query.from,
    to: query.to,
    rows: certificates.map((certificate) => toRegulatorRow(certificate, course, query)),
    courseMissing: [...(course.code ? [] : ['courseCode' as const]), ...(course.approvalNumber ? [] : ['approvalNumber' as const])],
  };
}

/** A member of staff downloads a certificate list or a regulator’s batch: its audit entry (the filters used, the rows sent) commits before the bytes go out. */
export async function recordCertificateDownload(
  deps: Pick<AppDeps, 'db'>,
  actor: TStaffActor,
  download: { action: string; filters: Record<string, unknown>; rows?: number | null },
): Promise<void> {
  await recordDownload(deps.db, actorOfStaff(actor), download);
}
