import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { ZEvidenceExportQuery, type TEvidenceOfCertificate } from '../../../shared/schemas/evidence.ts';
import type { AppDeps } from '../../deps.ts';
import { csvStream, type TCsvCell } from '../../lib/csv.ts';
import { staffActor } from '../../lib/session-user.ts';
import { evidenceOfCourse, recordEvidenceDownload } from './evidence.service.ts';

/** One row per thing that happened: each part watched, each refused report, each attempt. */
const EVIDENCE_CSV_HEADER = [
  'Certificate',
  'Issued at',
  'Revoked at',
  'Learner',
  'Email',
  'Course',
  'Record',
  'Part or attempt',
  'Started at',
  'Ended at',
  'Part length (seconds)',
  'Watched (seconds)',
  'Timed by the server (seconds)',
  'Score',
  'Percentage',
  'Result',
  'Detail',
];

function rowsOf(evidence: TEvidenceOfCertificate): TCsvCell[][] {
  const lead = [evidence.certificate.number, evidence.certificate.issuedAt, evidence.certificate.revokedAt, evidence.holder.name, evidence.holder.email, evidence.course.title];
  return [
    ...evidence.parts.flatMap((part) => [
      [...lead, 'Part watched', `Part ${part.serial}: ${part.title}`, part.firstWatchedAt, part.completedAt ?? part.lastWatchedAt, part.durationSeconds, part.watchedSeconds, part.timedSeconds, null, null, part.completedAt ? 'Completed' : 'Not completed', null],
      ...part.refusals.map((refusal) => [
        ...lead,
        'Report refused',
        `Part ${part.serial}: ${part.title}`,
        refusal.at,
        null,
        part.durationSeconds,
        refusal.creditedSeconds,
        null,
        null,
        null,
        null,
        `${refusal.reason}: claimed ${refusal.claimedFrom}-${refusal.claimedTo} s, credited ${refusal.creditedSeconds} s`,
      ]),
    ]),
    ...evidence.attempts.map((attempt) => [
      ...lead,
      'Test attempt',
      `Attempt ${attempt.number}`,
      attempt.startedAt,
      attempt.submittedAt,
      null,
      null,
      null,
      attempt.score === null ? null : `${attempt.score} / ${attempt.totalQuestions}`,
      attempt.percentage,
      attempt.passed === null ? 'Not submitted' : attempt.passed ? 'Passed' : 'Failed',
      attempt.questions.map((question, index) => `Q${index + 1} ${question.questionText}: ${question.selectedAnswer ?? '(none)'} / ${question.correctAnswer}`).join('; '),
    ]),
  ];
}

export const evidenceRest: FastifyPluginAsyncZod<{ deps: AppDeps }> = async (api, { deps }) => {
  api.get(
    '/certificates/evidence.csv',
    {
      config: { access: 'admin', permission: 'certificates.read' },
      schema: {
        summary: 'The evidence behind a course’s certificates issued from one day to another: each part watched (when, credited and timed seconds), each refused report and its reason, each attempt with its questions and answers. CSV (formula-guarded cells).',
        tags: ['Certificates'],
        querystring: ZEvidenceExportQuery,
      },
    },
    async (request, reply) => {
      const query = request.query;
      const evidence = await evidenceOfCourse(deps, query);
      await recordEvidenceDownload(deps, staffActor(request.caller, request.ip), { action: 'export.evidence', filters: query });
      async function* batches() {
        for await (const batch of evidence) yield batch.flatMap(rowsOf);
      }
      return reply
        .header('content-disposition', `attachment; filename="certificate-evidence-${query.from}-to-${query.to}.csv"`)
        .header('cache-control', 'no-store')
        .type('text/csv; charset=utf-8')
        .send(csvStream(EVIDENCE_CSV_HEADER, batches(), (row) => row));
    },
  );
};
