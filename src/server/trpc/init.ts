import { initTRPC, TRPCError } from '@trpc/server';
import { MESSAGES } from '../../shared/messages.ts';
import { isAppError, isServiceUnavailable } from '../lib/errors.ts';
import { describeIssues, refuseNulCharacters, schemaIssues } from '../lib/validation.ts';
import type { TrpcContext } from './context.ts';
import type { TStaffPermission } from '../../shared/staff-roles.ts';
import { staffActor, staffRefusal } from '../lib/session-user.ts';

const t = initTRPC.context<TrpcContext>().create({
  errorFormatter({ shape, error }) {
    const cause = error.cause;
    // Input that failed its schema reads like the REST answer: the first problem, then each field's.
    const issues = error.code === 'BAD_REQUEST' ? schemaIssues(cause) : undefined;
    const invalid = issues ? describeIssues(issues) : undefined;
    return {
      ...shape,
      // Internal errors never reach the client with their details.
      message:
        error.code === 'INTERNAL_SERVER_ERROR' ? MESSAGES.common.internal : (invalid?.message ?? shape.message),
      data: {
        ...shape.data,
        stack: undefined,
        fields: isAppError(cause) ? (cause.fields ?? null) : (invalid?.fields ?? null),
      },
    };
  },
});

/** Services throw AppError; this turns it into the tRPC error with the same code and message. */
const appErrors = t.middleware(async ({ next }) => {
  const result = await next();
  if (!result.ok && isAppError(result.error.cause)) {
    const cause = result.error.cause;
    throw new TRPCError({ code: cause.code, message: cause.message, cause });
  }
  if (!result.ok && isServiceUnavailable(result.error.cause)) {
    throw new TRPCError({ code: 'SERVICE_UNAVAILABLE', message: MESSAGES.common.unavailable, cause: result.error.cause });
  }
  return result;
});

export const createRouter = t.router;
export const createCallerFactory = t.createCallerFactory;

/** Text PostgreSQL cannot store is refused before the procedure's schema or service runs. */
const storableInput = t.middleware(async ({ getRawInput, next }) => {
  refuseNulCharacters(await getRawInput());
  return next();
});

export const publicProcedure = t.procedure.use(appErrors).use(storableInput);

export const authedProcedure = publicProcedure.use(({ ctx, next }) => {
  if (!ctx.user) throw new TRPCError({ code: 'UNAUTHORIZED', message: MESSAGES.common.unauthorized });
  return next({ ctx: { ...ctx, user: ctx.user } });
});

/**
 * A member of staff whose role holds the permission (decision 067), signed in with the second
 * factor the academy asks for; `ctx.actor` is who the audit trail records.
 */
export function staffProcedure(permission: TStaffPermission) {
  return authedProcedure.use(({ ctx, next }) => {
    const refusal = staffRefusal(ctx.user, permission);
    if (refusal) throw new TRPCError({ code: 'FORBIDDEN', message: refusal });
    return next({ ctx: { ...ctx, actor: staffActor(ctx.user, ctx.ip) } });
  });
}
