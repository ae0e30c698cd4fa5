import { dictionary } from '@zxcvbn-ts/language-common';
import { PASSWORD_MIN_LENGTH } from '../../shared/constants.ts';
import { MESSAGES } from '../../shared/messages.ts';
import { AppError } from './errors.ts';

let common: ReadonlySet<string> | undefined;

/**
 * The passwords most often found in breaches (zxcvbn-ts's list, about 49 000, most common first),
 * kept offline. Only those long enough to pass the length rule need keeping.
 */
function commonPasswords(): ReadonlySet<string> {
  common ??= new Set(
    (dictionary['passwords-common'] as readonly string[])
      .filter((password) => password.length >= PASSWORD_MIN_LENGTH)
      .map((password) => password.toLowerCase()),
  );
  return common;
}

/** True for a password on the common list, whatever its case. */
export function isCommonPassword(password: string): boolean {
  return commonPasswords().has(password.toLowerCase());
}

/** Refuses a new password that attackers would try first, naming the form field it came from. */
export function refuseCommonPassword(password: string, field: string): void {
  if (isCommonPassword(password)) {
    throw new AppError('BAD_REQUEST', MESSAGES.validation.passwordCommon, { fields: { [field]: MESSAGES.validation.passwordCommon } });
  }
}
