import { MESSAGES } from '../../../shared/messages.ts';
import type { TAdminSetupRequest } from '../../../shared/schemas/auth.ts';
import type { TMessageResult } from '../../../shared/schemas/common.ts';
import type { AppDeps } from '../../deps.ts';
import { revokeSessionChecks } from '../users/session.service.ts';
import { publicBaseUrl } from '../../env.ts';
import { AppError } from '../../lib/errors.ts';
import { refuseCommonPassword } from '../../lib/common-passwords.ts';
import { hashPassword } from '../../lib/passwords.ts';
import { hashToken, randomToken } from '../../lib/tokens.ts';
import {
  anyAdminExists,
  claimSetupToken,
  findAccountByEmail,
  findUsableSetupToken,
  insertAccount,
  insertSetupToken,
  promoteToAdmin,
  voidOpenSetupTokens,
} from './auth.repository.ts';

export const ADMIN_SETUP_TTL_MS = 24 * 3600_000;
export const ADMIN_SETUP_PATH = '/admin-setup';

type Deps = Pick<AppDeps, 'db' | 'env' | 'logger' | 'accessGrants'>;

export type TFirstAdminOutcome =
  | { kind: 'exists' }
  | { kind: 'created'; email: string }
  | { kind: 'promoted'; email: string }
  | { kind: 'link'; url: string };

/**
 * Makes sure the portal can be administered. With ADMIN_EMAIL and ADMIN_PASSWORD an administrator
 * is created (or the account with that e-mail promoted) when none exists; without them each start
 * with no administrator logs a new one-time set-up link, valid 24 hours, and voids earlier ones.
 */
export async function ensureFirstAdmin(deps: Deps): Promise<TFirstAdminOutcome> {
  if (await anyAdminExists(deps.db)) return { kind: 'exists' };
  const at = new Date();
  const { ADMIN_EMAIL, ADMIN_PASSWORD } = deps.env;
  if (ADMIN_EMAIL && ADMIN_PASSWORD) {
    const email = ADMIN_EMAIL.toLowerCase();
    const passwordHash = await hashPassword(ADMIN_PASSWORD);
    const existing = await findAccountByEmail(deps.db, email);
    if (existing) {
      await promoteToAdmin(deps.db, existing.id, passwordHash, at);
      // Its sessions' checks answered the old role (and the password changed).
      await revokeSessionChecks(deps, { userId: existing.id });
      deps.logger.warn({ email }, 'no administrator existed: the account with ADMIN_EMAIL is now one');
      return { kind: 'promoted', email };
    }
    await insertAccount(deps.db, {
      title: 'Mr',
      firstName: 'Administrator',
      lastName: '',
      mobile: '',
      email,
      passwordHash,
      role: 'admin',
      staffRole: 'owner',
      verifiedAt: at,
      approvedAt: at,
    });
    deps.logger.info({ email }, 'administrator created from ADMIN_EMAIL');
    return { kind: 'created', email };
  }
  const token = randomToken(32);
  await deps.db.transaction(async (tx) => {
    await voidOpenSetupTokens(tx, at);
    await insertSetupToken(tx, { tokenHash: hashToken(token), expiresAt: new Date(at.getTime() + ADMIN_SETUP_TTL_MS) });
  });
  const base = publicBaseUrl(deps.env);
  const url = `${base}${ADMIN_SETUP_PATH}?token=${token}`;
  deps.logger.warn(
    { url },
    `No administrator exists. Open this one-time link within 24 hours to create one: ${url} ` +
      '(or set ADMIN_EMAIL and ADMIN_PASSWORD and restart)',
  );
  return { kind: 'link', url };
}

/** Whether a set-up link can still be used, so the set-up screen can say so before the form. */
export async function adminSetupStatus(deps: Deps, token: string): Promise<{ valid: boolean }> {
  if (await anyAdminExists(deps.db)) return { valid: false };
  return { valid: (await findUsableSetupToken(deps.db, hashToken(token), new Date())) !== undefined };
}

/** Creates the first administrator with a set-up link; the link works once. */
export async function setupAdmin(deps: Deps, input: TAdminSetupRequest): Promise<TMessageResult> {
  refuseCommonPassword(input.password, 'password');
  const invalid = () => new AppError('BAD_REQUEST', MESSAGES.auth.adminSetupInvalid);
  if (!(await findUsableSetupToken(deps.db, hashToken(input.token), new Date()))) throw invalid();
  const passwordHash = await hashPassword(input.password);
  await deps.db.transaction(async (tx) => {
    const at = new Date();
    if (!(await claimSetupToken(tx, hashToken(input.token), at))) throw invalid();
    if (await anyAdminExists(tx)) throw new AppError('CONFLICT', MESSAGES.auth.adminExists);
    const account = await insertAccount(tx, {
      title: input.title,
      firstName: input.firstName,
      lastName: input.lastName,
      mobile: input.mobile,
      email: input.email,
      passwordHash,
      role: 'admin',
      staffRole: 'owner',
      verifiedAt: at,
      approvedAt: at,
    });
    if (!account) throw new AppError('CONFLICT', MESSAGES.auth.emailTaken, { fields: { email: MESSAGES.auth.emailTaken } });
  });
  deps.logger.info({ email: input.email }, 'administrator created with the set-up link');
  return { message: MESSAGES.auth.adminCreated };
}
