import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { FastifyReply } from 'fastify';
import writeXlsxFile, { type Cell, type SheetData } from 'write-excel-file/node';
import { z } from 'zod';
import { utcDay } from '../../../shared/calendar.ts';
import { MESSAGES } from '../../../shared/messages.ts';
import { NOT_VERIFIED_MARKER } from '../../../shared/identity.ts';
import {
  ZAdminCertificateExportQuery,
  ZRegulatorBatchQuery,
  type TAdminCertificateRow,
  type TCertificateState,
  type TRegulatorBatch,
  type TRegulatorRow,
} from '../../../shared/schemas/certificate.ts';
import type { AppDeps } from '../../deps.ts';
import { refusals } from '../../lib/rest-schema.ts';
import { csvStream, type TCsvCell } from '../../lib/csv.ts';
import { requestObject } from '../../../shared/schemas/common.ts';
import { staffActor } from '../../lib/session-user.ts';
import { allAdminCertificates, recordCertificateDownload, regulatorBatch } from './certificate-admin.service.ts';

/*
 * The administrators' downloads: the certificate list as CSV, and a course's batch for the
 * regulator (DG Shipping's batch upload) as CSV and XLSX. Each reads its query and its rows before
 * the answer starts, so bad input is a 400 and never a file.
 */

const V = MESSAGES.validation;

// ---------------------------------------------------------------------------------------------
// The certificate list

/**
 * The list's filters as a query string gives them: text, where an empty value is no filter (a
 * form's empty field) and the days are digits, then the list's own schema bounds them.
 */
const queryText = (label: string) => z.string({ error: V.mustBeText(label) }).optional();
const ZCertificateListCsvQuery = requestObject({
  search: queryText('Search'),
  courseId: queryText('Course'),
  state: queryText('State'),
  expiringWithinDays: queryText('Expiring within'),
})
  .transform(({ expiringWithinDays, ...filters }) => ({
    ...Object.fromEntries(Object.entries(filters).filter(([, value]) => value !== undefined && value.trim() !== '')),
    // Anything but a whole number of days is refused by the list's schema, with its message.
    ...(expiringWithinDays === undefined || expiringWithinDays.trim() === '' ? {} : { expiringWithinDays: Number(expiringWithinDays) }),
  }))
  .pipe(ZAdminCertificateExportQuery);

const STATE_WORDS: Record<TCertificateState, string> = {
  valid: 'Valid',
  expiring: 'Expiring',
  expired: 'Expired',
  revoked: 'Revoked',
  superseded: 'Superseded',
};

const LIST_CSV_HEADER = [
  'Certificate number',
  'Version',
  'State',
  'Holder',
  'Email',
  'INDoS Number',
  'Course',
  'Course code',
  'Issued at',
  'Valid until',
  'Revoked at',
  'Revoke reason',
  'Superseded by',
  'Last reminder (days before expiry)',
  'Last reminder at',
];

function listCells(row: TAdminCertificateRow): TCsvCell[] {
  return [
    row.number,
    row.version,
    STATE_WORDS[row.state],
    row.holder.name,
    row.holder.email,
    row.holder.indosNo,
    row.course.title,
    row.course.code,
    row.issuedAt,
    row.validUntil,
    row.revokedAt,
    row.revokeReason,
    row.supersededBy?.number,
    row.lastReminder?.daysBefore,
    row.lastReminder?.at,
  ];
}

// ---------------------------------------------------------------------------------------------
// The regulator's batch

/**
 * The DG Shipping batch upload's columns, in its order. Every value is text, dates included as
 * YYYY-MM-DD: a spreadsheet date would be shown (and saved again) in the opener's own locale
 * format, 27/11/2026 or 11/27/2026, and could move a day with the time zone, so a file opened
 * and saved before the upload would no longer say what the certificate says.
 */
/** A holder's value as the file writes it: the marker where no member of staff verified it. */
const holder = (value: (row: TRegulatorRow) => string) => (row: TRegulatorRow) => (row.verified ? value(row) : NOT_VERIFIED_MARKER);

const REGULATOR_COLUMNS: ReadonlyArray<{ header: string; width: number; value: (row: TRegulatorRow) => string }> = [
  { header: 'INDoS Number', width: 16, value: holder((row) => row.indosNo) },
  { header: 'Name as in Passport', width: 32, value: holder((row) => row.nameAsInPassport) },
  { header: 'Date of Birth', width: 14, value: holder((row) => row.dateOfBirth) },
  { header: 'Passport Number', width: 18, value: holder((row) => row.passportNumber) },
  { header: 'CDC Number', width: 18, value: holder((row) => row.cdcNumber) },
  { header: 'Course Code', width: 14, value: (row) => row.courseCode },
  { header: 'Approval Number', width: 24, value: (row) => row.approvalNumber },
  { header: 'Batch Start', width: 13, value: (row) => row.batchStart },
  { header: 'Batch End', width: 13, value: (row) => row.batchEnd },
  { header: 'Certificate Number', width: 20, value: (row) => row.certificateNumber },
  { header: 'Issue Date', width: 13, value: (row) => row.issueDate },
  { header: 'Valid Until', width: 13, value: (row) => row.validUntil },
  { header: 'Identity Verified By', width: 24, value: (row) => row.verifiedBy },
  { header: 'Identity Verified On', width: 14, value: (row) => row.verifiedOn },
];

/** The batch's file name: the course's code (or "course") and the days, nothing a header could trip on. */
function batchFileName(batch: TRegulatorBatch, extension: 'csv' | 'xlsx'): string {
  const code = (batch.course.code ?? '').replace(/[^A-Za-z0-9-]/g, '') || 'course';
  return `regulator-batch-${code}-${batch.from}-to-${batch.to}.${extension}`;
}

/**
 * The batch as a workbook: one sheet, a bold header row kept in view, and every cell text ('@'),
 * so an INDoS or passport number with leading zeros stays as written and nothing is read as a
 * number or a date. A text cell is never run as a formula, so the CSV's apostrophe guard is not
 * needed (and would change the value).
 */
function regulatorWorkbook(batch: TRegulatorBatch): Promise<Buffer> {
  const text = (value: string, bold = false): Cell => ({ value, type: String, format: '@', ...(bold ? { fontWeight: 'bold' as const } : {}) });
  const data: SheetData = [
    REGULATOR_COLUMNS.map((column) => text(column.header, true)),
    ...batch.rows.map((row) => REGULATOR_COLUMNS.map((column) => text(column.value(row)))),
  ];
  return writeXlsxFile(data, {
    sheet: 'Batch',
    columns: REGULATOR_COLUMNS.map((column) => ({ width: column.width })),
    stickyRowsCount: 1,
  }).toBuffer();
}

const REGULATOR_CSV_HEADER = REGULATOR_COLUMNS.map((column) => column.header);
const regulatorCells = (row: TRegulatorRow): TCsvCell[] => REGULATOR_COLUMNS.map((column) => column.value(row));

async function* oneBatch<T>(items: T[]): AsyncGenerator<T[]> {
  if (items.length > 0) yield items;
}

const attachment = (reply: FastifyReply, name: string) => reply.header('content-disposition', `attachment; filename="${name}"`).header('cache-control', 'no-store');

const REGULATOR_SUMMARY =
  'in the DG Shipping batch upload’s columns (INDoS Number, Name as in Passport, Date of Birth, Passport Number, CDC Number, Course Code, Approval Number, Batch Start, Batch End, Certificate Number, Issue Date, Valid Until, then Identity Verified By and On; dates as YYYY-MM-DD text; a holder whose identity no member of staff verified has NOT VERIFIED in place of each holder value): a course’s certificates issued on the days from `from` to `to` (inclusive, UTC) that are not revoked, in order of issue; the same rows in the same order on every download.';

export const certificateExportsRest: FastifyPluginAsyncZod<{ deps: AppDeps }> = async (api, { deps }) => {
  api.get(
    '/certificates/list.csv',
    {
      config: { access: 'admin', permission: 'certificates.read' },
      schema: {
        summary: 'Every certificate matching the administrators’ list filters (search by learner’s name, e-mail, INDoS or number; course; state; expiring within N days), newest issue first, as CSV (formula-guarded cells).',
        tags: ['Certificates'],
        querystring: ZCertificateListCsvQuery,
      },
    },
    async (request, reply) => {
      const query = request.query;
      const list = await allAdminCertificates(deps, query);
      await recordCertificateDownload(deps, staffActor(request.caller, request.ip), { action: 'export.certificate-list', filters: query, rows: list.total });
      return attachment(reply, `certificates-${utcDay()}.csv`)
        .header('x-total-count', String(list.total))
        .type('text/csv; charset=utf-8')
        .send(csvStream(LIST_CSV_HEADER, list.batches, listCells));
    },
  );

  api.get(
    '/certificates/regulator-batch.csv',
    {
      config: { access: 'admin', permission: 'certificates.read' },
      schema: {
        summary: `A regulator’s batch as CSV (formula-guarded cells), ${REGULATOR_SUMMARY}`,
        tags: ['Certificates'],
        querystring: ZRegulatorBatchQuery,
        response: { ...refusals({ 400: MESSAGES.certificateAdmin.unknownCourse }) },
      },
    },
    async (request, reply) => {
      const query = request.query;
      const batch = await regulatorBatch(deps, query);
      await recordCertificateDownload(deps, staffActor(request.caller, request.ip), { action: 'export.regulator-batch', filters: { ...query, format: 'csv' }, rows: batch.rows.length });
      return attachment(reply, batchFileName(batch, 'csv'))
        .header('x-total-count', String(batch.rows.length))
        .type('text/csv; charset=utf-8')
        .send(csvStream(REGULATOR_CSV_HEADER, oneBatch(batch.rows), regulatorCells));
    },
  );

  api.get(
    '/certificates/regulator-batch.xlsx',
    {
      config: { access: 'admin', permission: 'certificates.read' },
      schema: {
        summary: `A regulator’s batch as an Excel workbook (text cells), ${REGULATOR_SUMMARY}`,
        tags: ['Certificates'],
        querystring: ZRegulatorBatchQuery,
        response: { ...refusals({ 400: MESSAGES.certificateAdmin.unknownCourse }) },
      },
    },
    async (request, reply) => {
      const query = request.query;
      const batch = await regulatorBatch(deps, query);
      const workbook = await regulatorWorkbook(batch);
      await recordCertificateDownload(deps, staffActor(request.caller, request.ip), { action: 'export.regulator-batch', filters: { ...query, format: 'xlsx' }, rows: batch.rows.length });
      return attachment(reply, batchFileName(batch, 'xlsx'))
        .header('x-total-count', String(batch.rows.length))
        .type('application/vnd.openxmlformats-officedocument.spreadsheetml.sheet')
        .send(workbook);
    },
  );
};
