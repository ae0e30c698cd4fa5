import type { ReactNode } from 'react';
import type { TAdminCertificateRow } from '../../../shared/schemas/certificate.ts';
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from '@/components/ui/table.tsx';
import { type TCertificateAction, CertificateActions } from '@/features/admin-certificates/certificate-actions.tsx';
import { CertificateStateBadge } from '@/features/admin-certificates/certificate-state-badge.tsx';
import { reminderStage } from '@/features/admin-certificates/certificate-words.ts';
import { formatCalendarDate, formatDay } from '@/lib/format.ts';

type TOnAction = (action: TCertificateAction, row: TAdminCertificateRow) => void;

function Version({ version }: { version: number }) {
  return <span className="ml-1 text-xs text-muted-foreground">v{version}</span>;
}

function LastReminder({ row }: { row: TAdminCertificateRow }) {
  if (!row.lastReminder) return <span className="text-muted-foreground">None</span>;
  return (
    <span>
      {reminderStage(row.lastReminder.daysBefore)}
      <span className="block text-xs text-muted-foreground">{formatDay(row.lastReminder.at)}</span>
    </span>
  );
}

function validUntil(row: TAdminCertificateRow): string {
  return row.validUntil ? formatCalendarDate(row.validUntil) : 'Does not expire';
}

/** Why a certificate is no longer in force, when the server says so. */
function StateNote({ row }: { row: TAdminCertificateRow }) {
  if (row.state === 'revoked' && row.revokeReason) return <p className="mt-1 text-xs break-words text-muted-foreground">Reason: {row.revokeReason}</p>;
  if (row.state === 'superseded' && row.supersededBy) return <p className="mt-1 text-xs text-muted-foreground">Renewed by {row.supersededBy.number}</p>;
  return null;
}

/** The certificates as a table, on screens wide enough for one. */
function CertificateTable({ rows, onAction }: { rows: TAdminCertificateRow[]; onAction: TOnAction }) {
  return (
    <div className="hidden lg:block">
      <Table>
        <TableHeader>
          <TableRow>
            <TableHead>Certificate</TableHead>
            <TableHead>Holder</TableHead>
            <TableHead>Course</TableHead>
            <TableHead>Issued</TableHead>
            <TableHead>Valid until</TableHead>
            <TableHead>State</TableHead>
            <TableHead>Last reminder</TableHead>
          </TableRow>
        </TableHeader>
        <TableBody className="bg-card">
          {rows.map((row) => (
            <TableRow key={row.id} className="align-top">
              <TableCell className="w-52">
                <p className="font-mono text-xs whitespace-nowrap text-navy-900">
                  {row.number}
                  <Version version={row.version} />
                </p>
                <CertificateActions row={row} onAction={onAction} className="mt-2 max-w-52" />
              </TableCell>
              <TableCell className="max-w-56">
                <p className="font-semibold break-words text-navy-900">{row.holder.name}</p>
                <p className="text-xs break-all text-muted-foreground">{row.holder.email}</p>
                <p className="text-xs text-muted-foreground">
                  INDoS <span className="whitespace-nowrap">{row.holder.indosNo ?? '—'}</span>
                </p>
              </TableCell>
              <TableCell className="max-w-52">
                <p className="break-words text-navy-900">{row.course.title}</p>
                {row.course.code && <p className="font-mono text-xs text-muted-foreground">{row.course.code}</p>}
              </TableCell>
              <TableCell className="whitespace-nowrap">{formatDay(row.issuedAt)}</TableCell>
              <TableCell className="whitespace-nowrap">{validUntil(row)}</TableCell>
              <TableCell className="max-w-40">
                <CertificateStateBadge state={row.state} />
                <StateNote row={row} />
              </TableCell>
              <TableCell className="whitespace-nowrap">
                <LastReminder row={row} />
              </TableCell>
            </TableRow>
          ))}
        </TableBody>
      </Table>
    </div>
  );
}

function Fact({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div className="min-w-0">
      <dt className="text-xs text-muted-foreground">{label}</dt>
      <dd className="text-sm text-navy-900">{children}</dd>
    </div>
  );
}

/** The certificates as cards, on narrow screens. */
function CertificateCards({ rows, onAction }: { rows: TAdminCertificateRow[]; onAction: TOnAction }) {
  return (
    <ul className="grid gap-4 lg:hidden">
      {rows.map((row) => (
        <li key={row.id}>
          <article aria-label={`Certificate ${row.number}`} className="grid gap-3 rounded-xl border border-border bg-card p-4 shadow-card">
            <div className="flex flex-wrap items-start justify-between gap-2">
              <div className="min-w-0">
                <p className="font-semibold break-words text-navy-900">{row.holder.name}</p>
                <p className="text-xs break-all text-muted-foreground">{row.holder.email}</p>
              </div>
              <CertificateStateBadge state={row.state} />
            </div>
            <StateNote row={row} />
            <dl className="grid grid-cols-2 gap-x-4 gap-y-2">
              <Fact label="Number">
                <span className="font-mono text-xs">{row.number}</span>
                <Version version={row.version} />
              </Fact>
              <Fact label="INDoS">{row.holder.indosNo ?? '—'}</Fact>
              <Fact label="Course">
                <span className="break-words">{row.course.title}</span>
                {row.course.code && <span className="ml-1 font-mono text-xs text-muted-foreground">{row.course.code}</span>}
              </Fact>
              <Fact label="Issued">{formatDay(row.issuedAt)}</Fact>
              <Fact label="Valid until">{validUntil(row)}</Fact>
              <Fact label="Last reminder">
                <LastReminder row={row} />
              </Fact>
            </dl>
            <CertificateActions row={row} onAction={onAction} className="border-t border-border pt-2" />
          </article>
        </li>
      ))}
    </ul>
  );
}

/** A page of certificates: a table at desktop widths, cards on a phone (CSS decides, so the server's frame and the first render agree). */
export function CertificateList({ rows, onAction }: { rows: TAdminCertificateRow[]; onAction: TOnAction }) {
  return (
    <>
      <CertificateTable rows={rows} onAction={onAction} />
      <CertificateCards rows={rows} onAction={onAction} />
    </>
  );
}
