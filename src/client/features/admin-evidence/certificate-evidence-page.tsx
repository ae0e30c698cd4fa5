import { Award, Ban, FileQuestion, Printer } from 'lucide-react';
import type { ReactNode } from 'react';
import { Link, useLocation, useParams } from 'react-router-dom';
import { MESSAGES } from '../../../shared/messages.ts';
import type { TCertificateEvidence } from '../../../shared/schemas/evidence.ts';
import { staffMay } from '../../../shared/staff-roles.ts';
import { isAdminArea, paths } from '@/config/paths.ts';
import { AdminPage } from '@/components/layouts/admin-page.tsx';
import { LoadError } from '@/components/lists/list-states.tsx';
import { BackLink } from '@/components/navigation/back-link.tsx';
import { Badge } from '@/components/ui/badge.tsx';
import { Button } from '@/components/ui/button.tsx';
import { EmailAddress } from '@/components/ui/email-address.tsx';
import { Skeleton } from '@/components/ui/skeleton.tsx';
import { useCertificateEvidence } from '@/features/admin-evidence/api/use-certificate-evidence.ts';
import { AttemptsEvidence } from '@/features/admin-evidence/evidence-attempts.tsx';
import { AuditEvidence } from '@/features/admin-evidence/evidence-audit.tsx';
import { formatMoment } from '@/features/admin-evidence/evidence-format.ts';
import { EvidenceFigure, EvidenceSection } from '@/features/admin-evidence/evidence-layout.tsx';
import { WatchingEvidence } from '@/features/admin-evidence/evidence-watching.tsx';
import { errorMessage, httpStatusOf } from '@/lib/api-errors.ts';
import { useStaffRole } from '@/lib/staff-role.ts';

const E = MESSAGES.evidence;

const HEAD = {
  title: 'Certificate Evidence',
  description: 'What the server recorded behind one certificate: the training watched and every test attempt.',
} as const;

/**
 * Where the back link goes: the screen (with its search) the member came from, else Test Results,
 * or the certificates for a role that may not open the results (a registrar).
 */
function backOf(state: unknown, mayOpenResults: boolean): TBack {
  const from = state && typeof state === 'object' && 'returnTo' in state && typeof state.returnTo === 'string' && isAdminArea(state.returnTo) ? state.returnTo : null;
  const to = from ?? (mayOpenResults ? paths.admin.tests.results : paths.admin.certificates.list);
  const path = to.split(/[?#]/)[0];
  return { to, screen: path === paths.admin.tests.results ? 'Test Results' : path === paths.admin.certificates.list ? 'Certificates' : null };
}

/** The way back: its address and the screen's name, when it is one of the two that open evidence. */
type TBack = { to: string; screen: string | null };

/** The certificate itself: its number and state, its holder and course, when it was issued (and revoked, and why). */
function CertificateSummary({ evidence }: { evidence: TCertificateEvidence }) {
  const { certificate, holder, course } = evidence;
  const revoked = certificate.revokedAt !== null;
  return (
    <section aria-labelledby="evidence-certificate" className="grid gap-4 rounded-xl border border-border bg-card p-4 shadow-card sm:p-6 print:shadow-none">
      <div className="flex flex-wrap items-start justify-between gap-3">
        <div className="grid min-w-0 gap-0.5">
          <p className="text-xs text-muted-foreground">Certificate</p>
          <h2 id="evidence-certificate" className="font-mono text-lg font-semibold break-all text-navy-900">
            {certificate.number}
          </h2>
        </div>
        <Badge variant={revoked ? 'destructive' : 'success'}>
          {revoked ? <Ban aria-hidden /> : <Award aria-hidden />}
          {revoked ? 'Revoked' : 'Valid'}
        </Badge>
      </div>
      <dl className="grid gap-x-6 gap-y-3 sm:grid-cols-2">
        <EvidenceFigure label="Holder">
          <span className="block break-words">{holder.name}</span>
          <span className="block text-sm font-normal break-words text-muted-foreground">
            <EmailAddress email={holder.email} />
          </span>
        </EvidenceFigure>
        <EvidenceFigure label="Course">
          <span className="break-words">{course.title}</span>
        </EvidenceFigure>
        <EvidenceFigure label="Issued">{formatMoment(certificate.issuedAt)}</EvidenceFigure>
        <EvidenceFigure label="Revoked">{revoked ? formatMoment(certificate.revokedAt) : 'No'}</EvidenceFigure>
      </dl>
      {revoked && (
        <p className="rounded-md border border-red-200 bg-red-50 px-3 py-2 text-sm break-words text-navy-900">
          <span className="font-semibold">Reason for revoking: </span>
          {certificate.revokeReason ?? 'None was given.'}
        </p>
      )}
    </section>
  );
}

function EvidenceSkeleton() {
  return (
    <div className="grid gap-6" aria-busy>
      <span role="status" className="sr-only">
        Loading the evidence…
      </span>
      <Skeleton className="h-44 rounded-xl" />
      <Skeleton className="h-6 w-48" />
      <Skeleton className="h-40 rounded-xl" />
      <Skeleton className="h-6 w-40" />
      <Skeleton className="h-64 rounded-xl" />
    </div>
  );
}

function NotFound({ back }: { back: TBack }) {
  return (
    <div className="flex flex-col items-center rounded-xl border border-dashed border-border bg-card px-6 py-12 text-center">
      <span className="flex size-12 items-center justify-center rounded-full bg-sea-50 text-sea-700">
        <FileQuestion className="size-6" aria-hidden />
      </span>
      <p className="mt-4 font-semibold text-navy-900">{E.notFound}</p>
      <p className="mt-1 max-w-sm text-sm text-muted-foreground">The link may be mistyped. Open a certificate’s evidence from its result or its certificate.</p>
      <Button asChild variant="outline" className="mt-5">
        <Link to={back.to}>{back.screen ? `Go to ${back.screen}` : 'Go back'}</Link>
      </Button>
    </div>
  );
}

function PrintButton() {
  return (
    <Button variant="outline" onClick={() => window.print()} className="print:hidden">
      <Printer aria-hidden />
      Print
    </Button>
  );
}

/**
 * /admin-dashboard/certificate-evidence/:certificateId: everything an auditor needs to trust one
 * certificate (evidence.certificate): the certificate, each part of the training with when and
 * for how long it was watched and every report refused, and every attempt with its questions in
 * the order shown, the learner's answers and the right ones. Opened from Test Results.
 */
export function CertificateEvidencePage() {
  const { certificateId = '' } = useParams();
  const location = useLocation();
  // Test Results until the role says otherwise, so the link does not change under the reader.
  const { staffRole } = useStaffRole();
  const back = backOf(location.state, staffRole === undefined || staffMay(staffRole, 'results.read'));
  const query = useCertificateEvidence(certificateId);
  const status = httpStatusOf(query.error);
  const missing = status === 404 || status === 400;

  let body: ReactNode;
  if (query.isPending) body = <EvidenceSkeleton />;
  else if (missing) body = <NotFound back={back} />;
  else if (query.isError) {
    body = (
      <LoadError
        title={E.loadFailed}
        message={errorMessage(query.error, { fallback: E.loadFailed })}
        onRetry={() => void query.refetch()}
        retrying={query.isFetching}
      />
    );
  } else {
    body = (
      <div className="grid gap-8">
        <CertificateSummary evidence={query.data} />
        <EvidenceSection id="evidence-watching" title="Training watched">
          <WatchingEvidence parts={query.data.parts} />
        </EvidenceSection>
        <EvidenceSection id="evidence-attempts" title="Test attempts">
          <AttemptsEvidence attempts={query.data.attempts} />
        </EvidenceSection>
        <EvidenceSection id="evidence-audit" title="Staff actions">
          <AuditEvidence entries={query.data.audit} />
        </EvidenceSection>
      </div>
    );
  }

  return (
    <AdminPage
      {...HEAD}
      before={
        <div className="mb-4 print:hidden">
          <BackLink to={back.to}>{back.screen ? `Back to ${back.screen}` : 'Back'}</BackLink>
        </div>
      }
      action={query.data ? <PrintButton /> : undefined}
    >
      {body}
    </AdminPage>
  );
}
