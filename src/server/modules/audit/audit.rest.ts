import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { auditActionLabel, ZAuditFilters, type TAuditEntry } from '../../../shared/schemas/audit.ts';
import type { AppDeps } from '../../deps.ts';
import { csvStream, type TCsvCell } from '../../lib/csv.ts';
import { staffActor } from '../../lib/session-user.ts';
import { actorOfStaff, allAuditEntries, recordDownload } from './audit.service.ts';

const AUDIT_CSV_HEADER = ['Entry', 'When (UTC)', 'Person', 'Role', 'Address', 'Action', 'What', 'Subject', 'Subject id', 'Learner id', 'Before', 'After'];

const json = (value: unknown) => (value === null || value === undefined ? '' : JSON.stringify(value));

function auditCells(entry: TAuditEntry): TCsvCell[] {
  return [
    entry.seq,
    entry.at,
    entry.actorName ?? 'System',
    entry.actorRole,
    entry.address,
    entry.action,
    auditActionLabel(entry.action),
    entry.subjectType,
    entry.subjectId,
    entry.learnerId,
    json(entry.before),
    json(entry.after),
  ];
}

/** The audit trail's search as a CSV download; the download is itself an entry. */
export const auditRest: FastifyPluginAsyncZod<{ deps: AppDeps }> = async (api, { deps }) => {
  api.get(
    '/audit/entries.csv',
    {
      config: { access: 'admin', permission: 'audit.read' },
      schema: {
        summary: 'The audit trail’s entries matching the search (person, action, learner, days from `from` to `to`, inclusive, UTC), newest first, as CSV (formula-guarded cells).',
        tags: ['Audit'],
        querystring: ZAuditFilters,
      },
    },
    async (request, reply) => {
      const filters = request.query;
      await recordDownload(deps.db, actorOfStaff(staffActor(request.caller, request.ip)), { action: 'export.audit', filters });
      return reply
        .header('content-disposition', `attachment; filename="audit-trail-${new Date().toISOString().slice(0, 10)}.csv"`)
        .header('cache-control', 'no-store')
        .type('text/csv; charset=utf-8')
        .send(csvStream(AUDIT_CSV_HEADER, allAuditEntries(deps, filters), auditCells));
    },
  );
};
