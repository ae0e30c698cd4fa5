import { Ban, CircleAlert, CircleCheck, Clock, Repeat } from 'lucide-react';
import type { TCertificateState } from '../../../shared/schemas/certificate.ts';
import { Badge } from '@/components/ui/badge.tsx';

/** Each state's words and colour; the state itself is the server's (the client never decides it). */
const STATE_BADGES: Record<TCertificateState, { label: string; variant: 'success' | 'warning' | 'destructive' | 'outline' | 'default'; icon: typeof Ban }> = {
  valid: { label: 'Valid', variant: 'success', icon: CircleCheck },
  expiring: { label: 'Expiring', variant: 'warning', icon: Clock },
  expired: { label: 'Expired', variant: 'outline', icon: CircleAlert },
  revoked: { label: 'Revoked', variant: 'destructive', icon: Ban },
  superseded: { label: 'Superseded', variant: 'default', icon: Repeat },
};

/** The certificate's state as the server says it: Valid, Expiring, Expired, Revoked, Superseded. */
export function CertificateStateBadge({ state }: { state: TCertificateState }) {
  const badge = STATE_BADGES[state];
  return (
    <Badge variant={badge.variant} data-state={state}>
      <badge.icon aria-hidden />
      {badge.label}
    </Badge>
  );
}
