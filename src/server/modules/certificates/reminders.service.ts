import { addDays, daysBetween, utcDay } from '../../../shared/calendar.ts';
import type { TEnrolmentStatus } from '../../../shared/constants.ts';
import { MESSAGES } from '../../../shared/messages.ts';
import { personName } from '../../../shared/names.ts';
import type { TCertificateReminder, TReminderPreference, TReminderRunResult } from '../../../shared/schemas/certificate.ts';
import type { AppDeps } from '../../deps.ts';
import { publicBaseUrl } from '../../env.ts';
import { notFound } from '../../lib/errors.ts';
import type { TJobRef } from '../../lib/jobs/dispatcher.ts';
import type { JobContext } from '../../lib/jobs/runner.ts';
import { queueMails } from '../../lib/mail/mail.service.ts';
import type { TSessionUser, TStaffActor } from '../../lib/session-user.ts';
import { actorOfStaff, recordAudit } from '../audit/audit.service.ts';
import { dueReminderStage, expiringWindowDays } from './certificate-state.ts';
import {
  certificateExists,
  findReminderChoice,
  findRemindableBatch,
  findRemindersOf,
  insertReminders,
  setReminderChoice,
  setReminderMails,
  type TRemindable,
  type TSweepCursor,
} from './reminders.repository.ts';

/** What the sweep uses: what a scheduled task gets, or the same made from a request's deps. */
export type TReminderDeps = Pick<JobContext, 'db' | 'logger' | 'site' | 'publicUrl' | 'certificateReminderDays' | 'dispatch'>;

export function reminderDepsOf(deps: AppDeps): TReminderDeps {
  return {
    db: deps.db,
    logger: deps.logger,
    site: deps.site,
    publicUrl: publicBaseUrl(deps.env),
    certificateReminderDays: deps.env.CERTIFICATE_REMINDER_DAYS,
    dispatch: (jobs) => deps.jobs.dispatch(jobs),
  };
}

/** Certificates read per batch: one read, and at most one transaction of four writes, per batch. */
export const REMINDER_BATCH = 1000;

/** A holder who asked for the refresher (still pending, or accepted) is not reminded. */
const REFRESHER_ASKED: readonly TEnrolmentStatus[] = ['pending', 'approved'];

/**
 * The client's address a reminder links to (src/client/config/paths.ts: myCertificates). The
 * certificate's card there carries "Enrol in refresher", one click from the enrolment request; a
 * link cannot send the request itself (only the app asks the catalogue to), and the catalogue
 * alone would leave the holder to find the refresher among every course.
 */
const MY_CERTIFICATES_PATH = '/my-certificates';

// Made once: a formatter costs far more to make than to use, and a sweep prints thousands of dates.
const DAY_FORMAT = new Intl.DateTimeFormat('en-GB', { day: 'numeric', month: 'long', year: 'numeric', timeZone: 'UTC' });

/** 24 November 2026, from a UTC day: a date nobody reads the wrong way round. */
function printedDay(day: string): string {
  return DAY_FORMAT.format(new Date(`${day}T00:00:00Z`));
}

function daysLeftText(daysLeft: number): string {
  if (daysLeft === 0) return 'today is its last valid day';
  return `${daysLeft} day${daysLeft === 1 ? '' : 's'} from today`;
}

function stagesText(days: readonly number[]): string {
  const sorted = [...days].sort((a, b) => b - a).map(String);
  return sorted.length > 1 ? `${sorted.slice(0, -1).join(', ')} and ${sorted.at(-1)}` : (sorted[0] ?? '');
}

/** The reminder to a certificate's holder: what expires when, how to renew it, how to stop these mails. */
export function reminderMail(ctx: TReminderDeps, certificate: TRemindable, today: string) {
  const myCertificates = `${ctx.publicUrl}${MY_CERTIFICATES_PATH}`;
  const renew = certificate.refresherTitle
    ? [`To renew it, enrol in the refresher course, ${certificate.refresherTitle}, from My certificates: ${myCertificates}`]
    : [`See your certificates and what each needs: ${myCertificates}`];
  return {
    to: certificate.email,
    subject: `${ctx.site.name}: ${MESSAGES.certificate.reminderMailSubject}`,
    text: [
      `Hello ${certificate.firstName},`,
      '',
      `Your certificate ${certificate.number} for ${certificate.courseTitle} is valid until ${printedDay(certificate.validUntil)}: ` +
        `${daysLeftText(daysBetween(today, certificate.validUntil))}.`,
      '',
      ...renew,
      '',
      `We write ${stagesText(ctx.certificateReminderDays)} days before a certificate expires. ` +
        `To stop these e-mails, turn reminders off in My certificates: ${myCertificates}`,
      '',
      ctx.site.name,
    ].join('\n'),
  };
}

/** The stage to mail a certificate on `today`, if any: the holder wants reminders, has not enrolled in the refresher, and the stage is new. */
function stageToMail(certificate: TRemindable, today: string, reminderDays: readonly number[]): number | null {
  if (!certificate.remindersOn || certificate.enrolledInRefresher) return null;
  const stage = dueReminderStage(certificate.validUntil, today, reminderDays);
  return stage !== null && !certificate.sentStages.includes(stage) ? stage : null;
}

/**
 * The expiry reminders due on `today` (the UTC day unless given): each live certificate that
 * expires within the largest stage gets the stage `dueReminderStage` says is due, once ever. The
 * stage's row in certificate_reminders and its mail commit in one transaction, and only a row this
 * run inserted gets a mail: however many processes sweep at once or again (a restart, a flushed
 * Redis), the database holds one row per stage and the outbox one mail. `runBy` is the member of
 * staff who ran it now (each batch that queues mail writes its audit entry); absent for the schedule.
 */
export async function sendDueReminders(
  ctx: TReminderDeps,
  options: { today?: string; runBy?: TStaffActor; batchSize?: number } = {},
): Promise<TReminderRunResult & { batches: number }> {
  const today = options.today ?? utcDay();
  const reminderDays = ctx.certificateReminderDays;
  const window = { from: today, to: addDays(today, expiringWindowDays(reminderDays)) };
  const batchSize = options.batchSize ?? REMINDER_BATCH;
  let after: TSweepCursor | undefined;
  let examined = 0;
  let queued = 0;
  let batches = 0;
  for (;;) {
    const batch = await findRemindableBatch(ctx.db, window, after, batchSize, REFRESHER_ASKED);
    batches += 1;
    examined += batch.length;
    const due = batch.flatMap((certificate) => {
      const stage = stageToMail(certificate, today, reminderDays);
      return stage === null ? [] : [{ certificate, stage }];
    });
    if (due.length > 0) {
      const jobs = await ctx.db.transaction(async (tx): Promise<TJobRef[]> => {
        const recorded = await insertReminders(
          tx,
          due.map(({ certificate, stage }) => ({
            certificateId: certificate.id,
            daysBefore: stage,
            validUntil: certificate.validUntil,
            runBy: options.runBy?.id ?? null,
          })),
        );
        const mine = new Set(recorded.map((row) => `${row.certificateId}/${row.daysBefore}`));
        const toMail = due.filter(({ certificate, stage }) => mine.has(`${certificate.id}/${stage}`));
        const queuedMails = await queueMails(
          tx,
          toMail.map(({ certificate }) => reminderMail(ctx, certificate, today)),
        );
        await setReminderMails(
          tx,
          toMail.map(({ certificate, stage }, index) => ({ certificateId: certificate.id, daysBefore: stage, mailId: queuedMails[index]!.mailId })),
        );
        if (options.runBy && toMail.length > 0) {
          await recordAudit(tx, actorOfStaff(options.runBy), {
            action: 'reminders.run',
            subjectType: 'reminders',
            subjectId: today,
            before: null,
            after: { today, reminders: toMail.map(({ certificate, stage }) => ({ certificateId: certificate.id, daysBefore: stage })) },
          });
        }
        return queuedMails.map((queuedMail) => queuedMail.job);
      });
      queued += jobs.length;
      if (jobs.length > 0) await ctx.dispatch(jobs);
    }
    if (batch.length < batchSize) break;
    const last = batch[batch.length - 1]!;
    after = { validUntil: last.validUntil, id: last.id };
  }
  if (queued > 0) ctx.logger.info({ today, examined, queued, runBy: options.runBy?.id ?? 'schedule' }, 'certificate expiry reminders queued');
  return { examined, queued, daysBefore: [...reminderDays], batches };
}

/** An administrator runs the reminders now: what is due today goes out, recorded as run by them. */
export async function runRemindersNow(deps: AppDeps, actor: TStaffActor): Promise<TReminderRunResult> {
  const { examined, queued, daysBefore } = await sendDueReminders(reminderDepsOf(deps), { runBy: actor });
  if (queued === 0) {
    // A run that found nothing due is still an action someone took.
    await deps.db.transaction((tx) =>
      recordAudit(tx, actorOfStaff(actor), { action: 'reminders.run', subjectType: 'reminders', subjectId: utcDay(), before: null, after: { reminders: [] } }),
    );
  }
  return { examined, queued, daysBefore };
}

/** A certificate's reminders, newest first, with where and when each mail went and who ran it. */
export async function reminderHistory(deps: Pick<AppDeps, 'db'>, certificateId: string): Promise<TCertificateReminder[]> {
  if (!(await certificateExists(deps.db, certificateId))) throw notFound(MESSAGES.certificate.notFound);
  const rows = await findRemindersOf(deps.db, certificateId);
  return rows.map((row) => ({
    daysBefore: row.daysBefore,
    validUntil: row.validUntil,
    queuedAt: row.queuedAt.toISOString(),
    sentAt: row.sentAt ? row.sentAt.toISOString() : null,
    to: row.to,
    runBy:
      row.runBy === null
        ? 'schedule'
        : personName({ firstName: row.runnerFirstName ?? '', lastName: row.runnerLastName ?? '' }) || 'an administrator',
  }));
}

/** The signed-in user's own choice: e-mails before a certificate expires, or none. */
export async function reminderPreference(deps: Pick<AppDeps, 'db'>, user: TSessionUser): Promise<TReminderPreference> {
  const on = await findReminderChoice(deps.db, user.id);
  if (on === undefined) throw notFound();
  return { remindersOn: on };
}

export async function setReminderPreference(
  deps: Pick<AppDeps, 'db'>,
  user: TSessionUser,
  input: TReminderPreference,
): Promise<TReminderPreference> {
  const on = await setReminderChoice(deps.db, user.id, input.remindersOn);
  if (on === undefined) throw notFound();
  return { remindersOn: on };
}
