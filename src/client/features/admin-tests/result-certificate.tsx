import { Award, Ban } from 'lucide-react';
import { useState } from 'react';
import { Link, useLocation } from 'react-router-dom';
import { CERTIFICATE_REVOKE_REASON_MAX_LENGTH } from '../../../shared/constants.ts';
import type { TAdminCertificate } from '../../../shared/schemas/certificate.ts';
import { paths } from '@/config/paths.ts';
import { Badge } from '@/components/ui/badge.tsx';
import { Button } from '@/components/ui/button.tsx';
import { ConfirmDialog } from '@/components/ui/confirm-dialog.tsx';
import { Textarea } from '@/components/ui/textarea.tsx';
import { useResultRevoke } from '@/features/admin-tests/api/use-revoke-certificate.ts';
import { useStaffMay } from '@/lib/staff-role.ts';

/** Revokes a certificate (certificates.revoke); resolves once the server has answered. */
export type TRevokeCertificate = (input: { certificateId: string; reason?: string }) => Promise<unknown>;

type ResultCertificateProps = {
  certificate: TAdminCertificate;
  learner: string;
  /** Offered only when given: the Revoke button and its confirm dialog. */
  revoke?: TRevokeCertificate;
  revoking?: boolean;
};

/**
 * The certificate a passed attempt earned, beside its result: its number and state, the PDF once
 * ready, its evidence for an auditor, and Revoke for administrators. Everything about certificates
 * on the results screen is here, so the results card stays about the attempt.
 */
export function ResultCertificate({ certificate, learner, revoke, revoking = false }: ResultCertificateProps) {
  const [asking, setAsking] = useState(false);
  const [reason, setReason] = useState('');
  const revoked = certificate.revokedAt !== null;
  const { pathname, search } = useLocation();
  const mayReadEvidence = useStaffMay('certificates.read');
  return (
    <div className="flex flex-wrap items-center gap-2 text-sm">
      <Badge variant={revoked ? 'destructive' : certificate.status === 'ready' ? 'success' : 'warning'}>
        {revoked ? <Ban aria-hidden /> : <Award aria-hidden />}
        {revoked ? 'Certificate revoked' : certificate.status === 'ready' ? 'Certificate issued' : certificate.status === 'failed' ? 'Certificate PDF failed' : 'Certificate being prepared'}
      </Badge>
      <span className="font-mono text-xs text-navy-800">{certificate.number}</span>
      {certificate.pdfUrl && !revoked && (
        <a href={certificate.pdfUrl} target="_blank" rel="noreferrer" className="font-medium text-sea-700 underline underline-offset-4">
          Open PDF
        </a>
      )}
      {mayReadEvidence && (
        <Link
          to={paths.admin.tests.certificateEvidence(certificate.id)}
          state={{ returnTo: pathname + search }}
          className="font-medium text-sea-700 underline underline-offset-4"
          aria-label={`Evidence for certificate ${certificate.number}`}
        >
          Evidence
        </Link>
      )}
      {revoke && !revoked && (
        <>
          <Button variant="ghost" tone="danger" size="sm" onClick={() => setAsking(true)} aria-label={`Revoke certificate ${certificate.number}`}>
            Revoke
          </Button>
          <ConfirmDialog
            open={asking}
            title="Revoke certificate"
            description={`Are you sure you want to revoke certificate ${certificate.number} of ${learner}? Its verification page will say it was revoked.`}
            confirmLabel="Yes, Revoke"
            pendingLabel="Revoking..."
            destructive
            pending={revoking}
            onConfirm={() => void revoke({ certificateId: certificate.id, reason: reason.trim() || undefined }).finally(() => setAsking(false))}
            onClose={() => setAsking(false)}
          >
            <label htmlFor={`revoke-reason-${certificate.id}`} className="text-sm font-medium text-navy-900">
              Reason (kept for the record, never shown publicly)
            </label>
            <Textarea
              id={`revoke-reason-${certificate.id}`}
              rows={3}
              maxLength={CERTIFICATE_REVOKE_REASON_MAX_LENGTH}
              value={reason}
              onChange={(event) => setReason(event.target.value)}
              className="mt-2"
            />
          </ConfirmDialog>
        </>
      )}
    </div>
  );
}

/** The certificate part of a result card (ZAdminCertificate, or null when the attempt earned none), with Revoke. */
export function ResultCertificateSlot({ certificate, learner }: { certificate: TAdminCertificate | null; learner: string }) {
  const { revoke, revoking } = useResultRevoke();
  const mayRevoke = useStaffMay('certificates.manage');
  return certificate ? <ResultCertificate certificate={certificate} learner={learner} revoke={mayRevoke ? revoke : undefined} revoking={revoking} /> : null;
}
