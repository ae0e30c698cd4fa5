import { AlertTriangle, CalendarClock } from 'lucide-react';
import type { TExpiryStatus } from '../../../shared/schemas/profile.ts';
import { EXPIRY_WARNING_MONTHS } from '../../../shared/profile-fields.ts';
import { Badge } from '@/components/ui/badge.tsx';

/**
 * A flag for a document that has expired or expires within the warning window; nothing when valid.
 * `compact` leaves the document's name out, for a badge beside its own expiry date.
 */
export function ExpiryBadge({ status, document, compact = false }: { status: TExpiryStatus; document: string; compact?: boolean }) {
  if (status === 'expired') {
    return (
      <Badge variant="destructive" title={`${document} has expired`}>
        <AlertTriangle aria-hidden />
        {compact ? 'Expired' : `${document} expired`}
      </Badge>
    );
  }
  if (status === 'expiring') {
    return (
      <Badge variant="warning" title={`${document} expires within ${EXPIRY_WARNING_MONTHS} months`}>
        <CalendarClock aria-hidden />
        {compact ? 'Expires' : `${document} expires`} within {EXPIRY_WARNING_MONTHS} months
      </Badge>
    );
  }
  return null;
}
