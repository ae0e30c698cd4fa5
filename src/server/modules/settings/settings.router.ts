import { ZAcademySettings, ZAcademySettingsChange } from '../../../shared/schemas/staff.ts';
import { createRouter, staffProcedure } from '../../trpc/init.ts';
import { changeAcademySettings, getAcademySettings } from './settings.service.ts';

export const settingsRouter = createRouter({
  get: staffProcedure('settings.manage')
    .output(ZAcademySettings)
    .query(({ ctx }) => getAcademySettings(ctx.deps)),
  update: staffProcedure('settings.manage')
    .input(ZAcademySettingsChange)
    .output(ZAcademySettings)
    .mutation(({ ctx, input }) => changeAcademySettings(ctx.deps, ctx.actor, input)),
});
