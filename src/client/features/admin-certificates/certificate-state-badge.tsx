import type { TCertificateState } from '../../../shared/schemas/certificate.ts';
import { Badge, type BadgeProps } from '@/components/ui/badge.tsx';
import { STATE_LABELS } from '@/features/admin-certificates/certificate-words.ts';

const VARIANTS: Record<TCertificateState, BadgeProps['variant']> = {
  valid: 'success',
  expiring: 'warning',
  expired: 'destructive',
  revoked: 'destructive',
  superseded: 'outline',
};

/** The state the server gave a certificate, in words and colour. */
export function CertificateStateBadge({ state }: { state: TCertificateState }) {
  return <Badge variant={VARIANTS[state]}>{STATE_LABELS[state]}</Badge>;
}
