import { CheckCircle2, Clock, XCircle } from 'lucide-react';
import type { TEnrolmentStatus } from '../../../shared/constants.ts';
import { Badge } from '@/components/ui/badge.tsx';

const LOOK = {
  pending: { label: 'Pending approval', variant: 'warning', Icon: Clock },
  approved: { label: 'Approved', variant: 'success', Icon: CheckCircle2 },
  rejected: { label: 'Rejected', variant: 'destructive', Icon: XCircle },
} as const;

/** An enrolment's status in words and colour (never colour alone). */
export function EnrolmentStatusBadge({ status, className }: { status: TEnrolmentStatus; className?: string }) {
  const { label, variant, Icon } = LOOK[status];
  return (
    <Badge variant={variant} className={className}>
      <Icon aria-hidden />
      {label}
    </Badge>
  );
}
