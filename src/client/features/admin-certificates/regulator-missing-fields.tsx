import { AlertTriangle, CircleCheck } from 'lucide-react';
import { Link } from 'react-router-dom';
import type { TRegulatorBatch } from '../../../shared/schemas/certificate.ts';
import { paths } from '@/config/paths.ts';
import { COURSE_FIELD_LABELS, HOLDER_FIELD_LABELS, listInWords } from '@/features/admin-certificates/certificate-words.ts';

const capitalised = (text: string) => text.charAt(0).toUpperCase() + text.slice(1);

/**
 * What must be put right before the batch is uploaded, first on the screen: the course's own code
 * or approval number, and each completion that lacks a field the regulator requires, with the
 * fields in words and a link to the learner's profile (where the details are corrected; the
 * certificate is then re-issued to print them).
 */
export function RegulatorMissingFields({ batch }: { batch: TRegulatorBatch }) {
  const lacking = batch.rows.filter((row) => row.missing.length > 0);
  const courseLacks = batch.courseMissing.length > 0;
  if (!courseLacks && lacking.length === 0) {
    return (
      <p className="flex items-center gap-2 rounded-lg border border-green-200 bg-green-50 px-4 py-3 text-sm text-navy-900">
        <CircleCheck className="size-4 shrink-0 text-success" aria-hidden />
        Every completion has the fields the regulator requires.
      </p>
    );
  }
  return (
    <section aria-labelledby="batch-missing" className="grid gap-3 rounded-xl border border-yellow-300 bg-yellow-50 p-4 sm:p-5">
      <h2 id="batch-missing" className="flex items-center gap-2 text-base font-semibold text-navy-900">
        <AlertTriangle className="size-5 shrink-0 text-warning" aria-hidden />
        {lacking.length === 0
          ? 'The course lacks what the regulator requires'
          : `${lacking.length} completion${lacking.length === 1 ? ' lacks' : 's lack'} a required field`}
      </h2>
      {courseLacks && (
        <p className="text-sm text-navy-900">
          The course has no {listInWords(batch.courseMissing.map((field) => COURSE_FIELD_LABELS[field]), 'or')}.{' '}
          <Link to={paths.admin.courses.edit(batch.course.id)} className="font-medium text-sea-700 underline underline-offset-4">
            Open the course’s certificate settings
          </Link>
        </p>
      )}
      {lacking.length > 0 && (
        <ul className="grid gap-2" aria-label="Completions that lack a required field">
          {lacking.map((row) => (
            <li key={row.certificateId} className="grid gap-1 rounded-lg border border-yellow-200 bg-card px-3 py-2 text-sm sm:grid-cols-[1fr_auto] sm:items-center sm:gap-4">
              <div className="min-w-0">
                <p className="font-semibold break-words text-navy-900">
                  {row.nameAsInPassport || 'Name not given'} <span className="font-mono text-xs font-normal text-muted-foreground">{row.certificateNumber}</span>
                </p>
                <p className="text-navy-900">Missing: {capitalised(listInWords(row.missing.map((field) => HOLDER_FIELD_LABELS[field])))}</p>
              </div>
              <Link
                to={paths.admin.users.profile(row.userId)}
                className="font-medium whitespace-nowrap text-sea-700 underline underline-offset-4"
                aria-label={`Profile of the holder of ${row.certificateNumber}`}
              >
                Open profile
              </Link>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
