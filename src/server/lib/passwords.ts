import { hash, verify, type Algorithm } from '@node-rs/argon2';
import { availableParallelism } from 'node:os';
import { concurrencyLimit } from './concurrency.ts';

// The package declares its algorithms as a const enum, which isolated modules cannot read.
const ARGON2ID = 2 as Algorithm.Argon2id;

/**
 * argon2id at OWASP's minimum (19 MiB, two passes, one lane). @node-rs/argon2 hashes on libuv's
 * thread pool, so the event loop keeps serving other requests meanwhile.
 */
export const ARGON2_OPTIONS = {
  algorithm: ARGON2ID,
  memoryCost: 19_456,
  timeCost: 2,
  parallelism: 1,
} as const;

/**
 * Hashes run at most one fewer at once than the machine has cores (at least one): a burst of
 * sign-ups and logins queues here instead of taking every core, so requests that hash nothing
 * (a course list, a heartbeat, the health check) keep a core to be answered on.
 */
export const HASHING_CONCURRENCY = Math.max(1, availableParallelism() - 1);
const hashing = concurrencyLimit(HASHING_CONCURRENCY);

/** Hashes running and waiting now. */
export const hashingLoad = () => hashing.load;

export function hashPassword(password: string): Promise<string> {
  return hashing.run(() => hash(password, ARGON2_OPTIONS));
}

/** False for a wrong password and for a stored value that is not an argon2 hash. */
export async function verifyPassword(storedHash: string, password: string): Promise<boolean> {
  try {
    return await hashing.run(() => verify(storedHash, password));
  } catch {
    return false;
  }
}

let decoy: Promise<string> | undefined;

/**
 * Spends the same time as checking a real password, for an e-mail that has no account, so the
 * answer's timing does not tell whether the account exists.
 */
export async function verifyAgainstDecoy(password: string): Promise<void> {
  decoy ??= hashPassword('decoy password that no account has');
  await verifyPassword(await decoy, password);
}
