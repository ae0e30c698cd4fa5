import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { Logger } from 'pino';
import { randomToken } from './tokens.ts';

/**
 * JWT_SECRET when set; otherwise a secret generated on first start and kept in DATA_DIR, so tokens
 * survive a restart of a single instance. Several instances need the same JWT_SECRET.
 */
export function resolveJwtSecret(configured: string | undefined, dataDir: string, logger: Logger): string {
  if (configured) return configured;
  const file = path.join(dataDir, 'jwt-secret');
  if (existsSync(file)) {
    const kept = readFileSync(file, 'utf8').trim();
    if (kept.length >= 32) {
      logger.warn('JWT_SECRET is not set: using the secret kept in the data folder (set JWT_SECRET in production)');
      return kept;
    }
  }
  mkdirSync(dataDir, { recursive: true });
  const secret = randomToken(48);
  writeFileSync(file, `${secret}\n`, { mode: 0o600 });
  logger.warn({ file }, 'JWT_SECRET is not set: generated one and kept it in the data folder');
  return secret;
}
