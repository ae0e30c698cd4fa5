import type { FastifyPluginAsync } from 'fastify';
import { ZContactRequest } from '../../../shared/schemas/contact.ts';
import type { AppDeps } from '../../deps.ts';
import { doc } from '../../lib/openapi.ts';
import { parseInput } from '../../lib/validation.ts';
import { sendContactMessage } from './contact.service.ts';

/** POST /api/contact: the contact form (not in the spec's list, which had no working form). */
export const contactRest: FastifyPluginAsync<{ deps: AppDeps }> = async (api, { deps }) => {
  api.post('/contact', doc({ summary: 'Send a message to the academy.', access: 'public', tag: 'Contact', body: ZContactRequest, answers: { 429: 'Too many messages.' } }), async (request) =>
    sendContactMessage(deps, parseInput(ZContactRequest, request.body), request.ip),
  );
};
