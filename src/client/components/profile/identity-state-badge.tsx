import { CircleAlert, CircleCheck, Clock, Undo2 } from 'lucide-react';
import { IDENTITY_STATE_LABELS, type TIdentityState } from '../../../shared/identity.ts';
import { Badge } from '@/components/ui/badge.tsx';

const LOOK = {
  unverified: { variant: 'default', Icon: CircleAlert },
  awaiting_check: { variant: 'warning', Icon: Clock },
  verified: { variant: 'success', Icon: CircleCheck },
  returned: { variant: 'destructive', Icon: Undo2 },
} as const;

/** A profile's identity state in words, with its icon. */
export function IdentityStateBadge({ state }: { state: TIdentityState }) {
  const { variant, Icon } = LOOK[state];
  return (
    <Badge variant={variant}>
      <Icon aria-hidden />
      {IDENTITY_STATE_LABELS[state]}
    </Badge>
  );
}

/** "Same INDOS as 1 other account": a flag for staff only. */
export function DuplicateFlag({ duplicates }: { duplicates: { indosNo: number; passportNumber: number } }) {
  const parts = [
    duplicates.indosNo > 0 ? `INDOS (${duplicates.indosNo})` : null,
    duplicates.passportNumber > 0 ? `passport (${duplicates.passportNumber})` : null,
  ].filter(Boolean);
  if (parts.length === 0) return null;
  return (
    <Badge variant="destructive">
      <CircleAlert aria-hidden />
      Same {parts.join(' and ')} on another account
    </Badge>
  );
}
