import { BellRing, Ban, ExternalLink, RefreshCw, UserRound } from 'lucide-react';
import { Link } from 'react-router-dom';
import type { TAdminCertificateRow } from '../../../shared/schemas/certificate.ts';
import { paths } from '@/config/paths.ts';
import { useStaffMay } from '@/lib/staff-role.ts';
import { cn } from '@/lib/utils.ts';

/** What an administrator may ask of a certificate from the list. */
export type TCertificateAction = 'revoke' | 'reissue' | 'reminders';

/** A revoked certificate stays revoked, and a renewed one is the refresher's business. */
export const canRevoke = (row: TAdminCertificateRow) => row.state !== 'revoked' && row.state !== 'superseded';
/** Re-issue prints the PDF again: only a live certificate whose PDF exists. */
export const canReissue = (row: TAdminCertificateRow) => canRevoke(row) && row.status === 'ready';

/** Every action looks alike, a link or a button: a small word with its icon, in a row that wraps. */
const ACTION =
  'inline-flex cursor-pointer items-center gap-1 rounded-sm py-0.5 text-sm font-medium whitespace-nowrap outline-none underline-offset-4 hover:underline focus-visible:ring-2 focus-visible:ring-ring [&_svg]:size-3.5 [&_svg]:shrink-0';

/**
 * A row's actions: View PDF, Revoke, Re-issue, the reminder history and the holder's profile, as
 * far as the member's role allows them. Each
 * is named with the certificate's number, so a screen reader tells the rows' buttons apart.
 */
export function CertificateActions({
  row,
  onAction,
  className,
}: {
  row: TAdminCertificateRow;
  onAction: (action: TCertificateAction, row: TAdminCertificateRow) => void;
  className?: string;
}) {
  // Revoke and Re-issue for a role that may manage certificates; the others read them.
  const mayManage = useStaffMay('certificates.manage');
  const mayOpenProfile = useStaffMay('accounts.read');
  return (
    <div className={cn('flex flex-wrap items-center gap-x-3 gap-y-1.5', className)}>
      {row.pdfUrl && (
        <a href={row.pdfUrl} target="_blank" rel="noreferrer" className={cn(ACTION, 'text-sea-700')} aria-label={`View PDF of certificate ${row.number}`}>
          <ExternalLink aria-hidden />
          View PDF
        </a>
      )}
      {mayOpenProfile && (
        <Link to={paths.admin.users.profile(row.holder.userId)} className={cn(ACTION, 'text-sea-700')} aria-label={`Profile of ${row.holder.name}`}>
          <UserRound aria-hidden />
          Profile
        </Link>
      )}
      <button type="button" className={cn(ACTION, 'text-sea-700')} onClick={() => onAction('reminders', row)} aria-label={`Reminder history of certificate ${row.number}`}>
        <BellRing aria-hidden />
        Reminders
      </button>
      {mayManage && canReissue(row) && (
        <button type="button" className={cn(ACTION, 'text-sea-700')} onClick={() => onAction('reissue', row)} aria-label={`Re-issue certificate ${row.number}`}>
          <RefreshCw aria-hidden />
          Re-issue
        </button>
      )}
      {mayManage && canRevoke(row) && (
        <button type="button" className={cn(ACTION, 'text-destructive')} onClick={() => onAction('revoke', row)} aria-label={`Revoke certificate ${row.number}`}>
          <Ban aria-hidden />
          Revoke
        </button>
      )}
    </div>
  );
}
