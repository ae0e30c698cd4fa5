import { auditActionLabel } from '../../../shared/audit-actions.ts';
import type { TAuditEntry } from '../../../shared/schemas/audit.ts';
import { STAFF_ROLE_LABELS, type TStaffRole } from '../../../shared/staff-roles.ts';
import { formatMoment } from '@/features/admin-evidence/evidence-format.ts';

const roleOf = (role: string | null) => (role ? ((STAFF_ROLE_LABELS as Record<string, { label: string } | undefined>)[role as TStaffRole]?.label ?? role) : '');

/** What the entry's values say, in a line: a revocation's reason, a re-issue's version and name. */
function detailOf(entry: TAuditEntry): string | null {
  const after = entry.after && typeof entry.after === 'object' && !Array.isArray(entry.after) ? entry.after : null;
  const before = entry.before && typeof entry.before === 'object' && !Array.isArray(entry.before) ? entry.before : null;
  if (!after) return null;
  if (entry.action === 'certificate.revoke') return after.reason ? `Reason: ${String(after.reason)}` : 'No reason given';
  if (entry.action === 'certificate.reissue') {
    const name = before && before.holderName !== after.holderName ? `; name ${String(before.holderName)} → ${String(after.holderName)}` : '';
    return `Version ${String(before?.version ?? '?')} → ${String(after.version)}${name}`;
  }
  return null;
}

/** The certificate's entries in the audit trail: who revoked or re-issued it, when, from where. */
export function AuditEvidence({ entries }: { entries: TAuditEntry[] }) {
  if (entries.length === 0) return <p className="text-sm text-muted-foreground">No member of staff has changed this certificate since it was issued.</p>;
  return (
    <ol className="grid gap-3">
      {entries.map((entry) => {
        const detail = detailOf(entry);
        return (
          <li key={entry.seq} className="rounded-lg border border-border bg-card p-4 text-sm print:break-inside-avoid">
            <p className="font-semibold text-navy-900">{auditActionLabel(entry.action)}</p>
            <p className="text-muted-foreground">
              {formatMoment(entry.at)} · {entry.actorName ?? 'System'}
              {entry.actorRole ? ` (${roleOf(entry.actorRole)})` : ''}
              {entry.address ? ` · ${entry.address}` : ''}
            </p>
            {detail && <p className="mt-1 break-words">{detail}</p>}
          </li>
        );
      })}
    </ol>
  );
}
