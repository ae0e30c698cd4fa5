import { ZMessageResult } from '../../../shared/schemas/common.ts';
import { ZContactRequest } from '../../../shared/schemas/contact.ts';
import { createRouter, publicProcedure } from '../../trpc/init.ts';
import { sendContactMessage } from './contact.service.ts';

export const contactRouter = createRouter({
  /** The contact page's form: delivered to the academy by e-mail, throttled per address. */
  send: publicProcedure
    .input(ZContactRequest)
    .output(ZMessageResult)
    .mutation(({ ctx, input }) => sendContactMessage(ctx.deps, input, ctx.ip)),
});
