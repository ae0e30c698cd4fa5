import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { ZContactRequest } from '../../../shared/schemas/contact.ts';
import type { AppDeps } from '../../deps.ts';
import { refusals } from '../../lib/rest-schema.ts';
import { sendContactMessage } from './contact.service.ts';

/** POST /api/contact: the contact form (not in the spec's list, which had no working form). */
export const contactRest: FastifyPluginAsyncZod<{ deps: AppDeps }> = async (api, { deps }) => {
  api.post('/contact', { config: { access: 'public' }, schema: { summary: 'Send a message to the academy.', tags: ['Contact'], body: ZContactRequest, response: { ...refusals({ 429: 'Too many messages.' }) } } }, async (request) =>
    sendContactMessage(deps, request.body, request.ip),
  );
};
