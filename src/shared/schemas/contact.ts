import { z } from 'zod';
import { PHONE_PATTERN } from '../constants.ts';
import { MESSAGES } from '../messages.ts';
import { emailAddress, multilineText, plainText, presentText, requestObject } from './common.ts';

const M = MESSAGES.contact;
const V = MESSAGES.validation;

export const CONTACT_NAME_MAX_LENGTH = 100;
export const CONTACT_MESSAGE_MAX_LENGTH = 5000;

/** The contact form: name, e-mail, message, and a phone number if the visitor wants a call. */
export const ZContactRequest = requestObject({
  name: presentText('Name', M.nameRequired)
    .pipe(plainText('Name', CONTACT_NAME_MAX_LENGTH))
    .refine((value) => !/[<>]/.test(value), V.badCharacters('Name')),
  email: emailAddress({ missing: V.emailRequired, invalid: V.emailInvalid }),
  phone: z
    .string({ error: V.mustBeText('Phone') })
    // Spaces and hyphens as people type them; the digits are what is checked and kept.
    .transform((value) => value.replace(/[\s-]/g, ''))
    .refine((value) => value === '' || PHONE_PATTERN.test(value), V.phone)
    .optional()
    .transform((value) => value || undefined),
  message: presentText('Message', M.messageRequired).pipe(multilineText('Message', CONTACT_MESSAGE_MAX_LENGTH)),
});
export type TContactRequest = z.output<typeof ZContactRequest>;
export type TContactRequestInput = z.input<typeof ZContactRequest>;
