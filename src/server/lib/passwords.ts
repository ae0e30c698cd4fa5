import type { Algorithm } from '@node-rs/argon2';
import { availableParallelism } from 'node:os';
import { isServiceUnavailable } from './errors.ts';
import { createHashingThreads } from './hashing-threads.ts';

// The package declares its algorithms as a const enum, which isolated modules cannot read.
const ARGON2ID = 2 as Algorithm.Argon2id;

/** argon2id at OWASP's minimum (19 MiB, two passes, one lane). */
export const ARGON2_OPTIONS = {
  algorithm: ARGON2ID,
  memoryCost: 19_456,
  timeCost: 2,
  parallelism: 1,
} as const;

/**
 * Hashes run on threads of their own at the lowest CPU priority (decision 031), so the kernel
 * gives a request that hashes nothing (a course list, a heartbeat, the health check) a core
 * before them, and they may take every core the rest leaves idle: as many at once as the machine
 * has cores. A thread's priority can only be lowered on Linux; elsewhere (macOS in development)
 * one fewer (at least one), so a burst of sign-ups and logins still leaves a core to answer on.
 * The others queue in order of arrival.
 */
export const HASHING_CONCURRENCY =
  process.platform === 'linux' ? availableParallelism() : Math.max(1, availableParallelism() - 1);
const hashing = createHashingThreads({ size: HASHING_CONCURRENCY, argon2Options: ARGON2_OPTIONS });

/** Hashes running and waiting now. */
export const hashingLoad = () => hashing.load;

/** The hashing threads started so far, with their priority (for tests and logs). */
export const hashingThreads = () => hashing.threads();

/** Ends the hashing threads (the server stopping); a later hash starts new ones. */
export const closePasswordHashing = () => hashing.close();

export async function hashPassword(password: string): Promise<string> {
  return (await hashing.run({ kind: 'hash', password })) as string;
}

/**
 * False for a wrong password and for a stored value that is not an argon2 hash. Hashing being
 * unavailable (its threads failing) is thrown, not taken for a wrong password: the answer is a 503
 * and no failed try is counted against the account.
 */
export async function verifyPassword(storedHash: string, password: string): Promise<boolean> {
  try {
    return (await hashing.run({ kind: 'verify', hash: storedHash, password })) as boolean;
  } catch (error) {
    if (isServiceUnavailable(error)) throw error;
    return false;
  }
}

let decoy: Promise<string> | undefined;

/**
 * Spends the same time as checking a real password, for an e-mail that has no account, so the
 * answer's timing does not tell whether the account exists.
 */
export async function verifyAgainstDecoy(password: string): Promise<void> {
  decoy ??= hashPassword('decoy password that no account has').catch((error: unknown) => {
    decoy = undefined;
    throw error;
  });
  await verifyPassword(await decoy, password);
}
