import { z } from 'zod';
import {
  ZCertificateIdRequest,
  ZCertificateReminder,
  ZReminderPreference,
  ZReminderRunResult,
} from '../../../shared/schemas/certificate.ts';
import { authedProcedure, staffProcedure } from '../../trpc/init.ts';
import { reminderHistory, reminderPreference, runRemindersNow, setReminderPreference } from './reminders.service.ts';

/** The expiry reminders' procedures (run now, history, the learner's choice), spread into the certificates router. */
export const certificateReminderProcedures = {
  /** An administrator sends the reminders due today now, recorded as run by them. */
  runRemindersNow: staffProcedure('certificates.manage').output(ZReminderRunResult).mutation(({ ctx }) => runRemindersNow(ctx.deps, ctx.actor)),

  /** A certificate's reminders, newest first; NOT_FOUND for an unknown certificate. */
  reminders: staffProcedure('certificates.read')
    .input(ZCertificateIdRequest)
    .output(z.array(ZCertificateReminder))
    .query(({ ctx, input }) => reminderHistory(ctx.deps, input.certificateId)),

  /** The caller's own choice: e-mails before a certificate expires. */
  reminderPreference: authedProcedure.output(ZReminderPreference).query(({ ctx }) => reminderPreference(ctx.deps, ctx.user)),

  setReminderPreference: authedProcedure
    .input(ZReminderPreference)
    .output(ZReminderPreference)
    .mutation(({ ctx, input }) => setReminderPreference(ctx.deps, ctx.user, input)),
};
