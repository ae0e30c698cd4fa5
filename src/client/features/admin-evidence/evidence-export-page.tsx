import { Download } from 'lucide-react';
import { type FormEvent, useState } from 'react';
import { useNavigate } from 'react-router-dom';
import { toast } from 'sonner';
import { ADMIN_TOAST_MS } from '../../../shared/constants.ts';
import { MESSAGES } from '../../../shared/messages.ts';
import { paths } from '@/config/paths.ts';
import { CourseDayRangeFields, useCourseDayRange } from '@/components/course/course-day-range.tsx';
import { AdminPage } from '@/components/layouts/admin-page.tsx';
import { adminPageHeadOf } from '@/components/layouts/admin-page-heads.ts';
import { Card, CardContent } from '@/components/ui/card.tsx';
import { SubmitButton } from '@/components/ui/submit-button.tsx';
import { downloadEvidenceCsv } from '@/features/admin-evidence/api/download-evidence-csv.ts';
import { useEvidenceCourses } from '@/features/admin-evidence/api/use-evidence-courses.ts';

const E = MESSAGES.evidence;
/** What each row of the file says: the words under the form. */
function FileContents() {
  return (
    <section aria-labelledby="evidence-file" className="mt-8 grid gap-3 text-sm">
      <h2 id="evidence-file" className="text-lg font-semibold text-navy-900">
        What the file holds
      </h2>
      <p className="text-muted-foreground">
        Every certificate of the course issued on the days chosen, both included (days run midnight to midnight UTC). Each row starts with the
        certificate’s number, when it was issued and revoked, the holder’s name and e-mail and the course, then says one thing that happened:
      </p>
      <ul className="grid list-disc gap-2 pl-5 text-navy-900 marker:text-sea-700">
        <li>
          <span className="font-semibold">Part watched:</span> each part of the training, when it was first watched and completed, its length, the
          seconds credited and the seconds the server’s own clock saw it playing.
        </li>
        <li>
          <span className="font-semibold">Report refused:</span> each report of watching the server did not credit in full, when, why, the span it
          claimed and what was credited.
        </li>
        <li>
          <span className="font-semibold">Test attempt:</span> each attempt, when it was started and submitted, its score, percentage and result,
          and every question with the learner’s answer beside the right one.
        </li>
      </ul>
      <p className="text-muted-foreground">
        To see one certificate’s evidence on screen, open Test Results and choose Evidence beside the certificate.
      </p>
    </section>
  );
}

/**
 * /admin-dashboard/certificate-evidence: the evidence behind a course's certificates issued on a
 * range of days, downloaded as one CSV with the administrator's session. The form is checked here
 * without a form library or zod, so the test screens' chunk it shares stays free of them (decision 035).
 */
export function EvidenceExportPage() {
  const navigate = useNavigate();
  const courses = useEvidenceCourses();
  const form = useCourseDayRange(E);
  const [pending, setPending] = useState(false);

  async function exportEvidence(event: FormEvent) {
    event.preventDefault();
    const range = form.check();
    if (!range) return;
    setPending(true);
    const outcome = await downloadEvidenceCsv(range);
    setPending(false);
    if (outcome.outcome === 'saved') toast.success(E.exported, { duration: ADMIN_TOAST_MS, description: outcome.fileName });
    else if (outcome.outcome === 'unauthorized') navigate(paths.adminLogin);
    else toast.error(E.exportFailed, { duration: ADMIN_TOAST_MS, description: outcome.message });
  }

  return (
    <AdminPage {...adminPageHeadOf(paths.admin.tests.evidence)}>
      <Card>
        <CardContent className="p-4 sm:p-6">
          <form noValidate onSubmit={(event) => void exportEvidence(event)} className="grid gap-5" aria-label="Export evidence">
            <CourseDayRangeFields idPrefix="evidence" form={form} choices={courses} />
            <div>
              <SubmitButton pending={pending}>
                {!pending && <Download aria-hidden />}
                {pending ? 'Exporting…' : 'Export CSV'}
              </SubmitButton>
            </div>
          </form>
        </CardContent>
      </Card>
      <FileContents />
    </AdminPage>
  );
}
