/** The expiry reminders' procedures (run now, history, the learner's choice), spread into the certificates router. */
export const certificateReminderProcedures = {};
