import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import { MESSAGES } from '../../shared/messages.ts';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';
import { isAppError, isServiceUnavailable, UNAVAILABLE_RETRY_AFTER_SECONDS } from './errors.ts';
import { describeIssues } from './validation.ts';

/** Messages for the errors Fastify itself raises before a handler runs. */
const FRAMEWORK_MESSAGES: Record<number, string> = {
  400: MESSAGES.common.badRequest,
  401: MESSAGES.common.unauthorized,
  403: MESSAGES.common.forbidden,
  404: MESSAGES.common.notFound,
  413: MESSAGES.common.payloadTooLarge,
  415: MESSAGES.common.unsupportedMediaType,
  429: MESSAGES.common.tooManyRequests,
};

/** The one mapping from a thrown error to an HTTP answer `{ message }` for everything but tRPC. */
export function sendError(error: unknown, request: FastifyRequest, reply: FastifyReply) {
  if (isAppError(error)) {
    if (error.retryAfterSeconds !== undefined) reply.header('retry-after', String(error.retryAfterSeconds));
    return reply.status(error.status).send({
      message: error.message,
      ...(error.fields ? { errors: error.fields } : {}),
    });
  }
  // A REST route's schema refused the input: the first problem, and each field's first problem
  // under the name the request used.
  if (hasZodFastifySchemaValidationErrors(error)) {
    const { message, fields } = describeIssues(error.validation.map((issue) => ({ message: issue.message ?? MESSAGES.common.badRequest, path: issue.instancePath.split('/').slice(1).filter(Boolean) })));
    return reply.status(400).send({ message, errors: fields });
  }
  const fastifyError = error as Partial<FastifyError>;
  const status = fastifyError.statusCode;
  if (status !== undefined && status >= 400 && status < 500) {
    const message =
      fastifyError.code === 'FST_ERR_CTP_INVALID_JSON_BODY' || error instanceof SyntaxError
        ? MESSAGES.common.malformedJson
        : (FRAMEWORK_MESSAGES[status] ?? MESSAGES.common.badRequest);
    return reply.status(status).send({ message });
  }
  if (isServiceUnavailable(error)) {
    request.log.warn({ err: error }, 'a service the request needs is unreachable');
    return reply.status(503).header('retry-after', String(UNAVAILABLE_RETRY_AFTER_SECONDS)).send({ message: MESSAGES.common.unavailable });
  }
  request.log.error({ err: error }, 'unhandled error');
  return reply.status(500).send({ message: MESSAGES.common.internal });
}

