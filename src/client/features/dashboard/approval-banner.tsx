import { ArrowRight, Hourglass } from 'lucide-react';
import { Link } from 'react-router-dom';
import { MESSAGES } from '../../../shared/messages.ts';
import { paths } from '@/config/paths.ts';
import { Alert, AlertDescription, AlertTitle } from '@/components/ui/alert.tsx';
import { Button } from '@/components/ui/button.tsx';

/**
 * Shown to a learner whose account the academy has not approved yet (read fresh from the server,
 * so it disappears on the next visit after approval). Enrolment waits for approval; the profile
 * does not, and the academy reviews the documents in it.
 */
export function ApprovalBanner() {
  return (
    <Alert variant="warning" className="items-center">
      <Hourglass aria-hidden />
      <AlertTitle>{MESSAGES.enrolment.accountNotApproved}</AlertTitle>
      <AlertDescription>
        <p>
          Meanwhile, complete your profile with your passport, INDOS and CDC details and your documents: the academy
          reviews them before approving your account, and you can request courses as soon as it is approved.
        </p>
        <Button asChild size="sm" className="mt-3">
          <Link to={paths.profile}>
            Complete your profile
            <ArrowRight aria-hidden />
          </Link>
        </Button>
      </AlertDescription>
    </Alert>
  );
}
