import { RotateCcw } from 'lucide-react';
import { useState } from 'react';
import type { TResultItem } from '../../../shared/schemas/tests.ts';
import { Button } from '@/components/ui/button.tsx';
import { ConfirmDialog } from '@/components/ui/confirm-dialog.tsx';
import { useGrantAttempts } from '@/features/admin-tests/api/use-grant-attempts.ts';

/** Grants the learner of a failed attempt one more attempt at the course's test, after asking. */
export function ResultGrantAttempt({ result }: { result: TResultItem }) {
  const [asking, setAsking] = useState(false);
  const { grant, granting } = useGrantAttempts();
  return (
    <>
      <Button variant="outline" size="sm" onClick={() => setAsking(true)} aria-label={`Grant ${result.user.name} another attempt at ${result.course.title}`}>
        <RotateCcw aria-hidden />
        Grant attempt
      </Button>
      <ConfirmDialog
        open={asking}
        title="Grant another attempt"
        description={`Give ${result.user.name} one more attempt at the test of ${result.course.title}? They can take it without watching the training again, once the test's wait has passed.`}
        confirmLabel="Yes, Grant"
        pendingLabel="Granting..."
        pending={granting}
        onConfirm={() => void grant({ userId: result.user.id, courseId: result.course.id, attempts: 1 }).finally(() => setAsking(false))}
        onClose={() => setAsking(false)}
      />
    </>
  );
}
