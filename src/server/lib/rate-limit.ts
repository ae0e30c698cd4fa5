import { Redis } from 'ioredis';
import type { Logger } from 'pino';

export type TRateLimitHit = {
  /** Hits in the current window, this one included. */
  count: number;
  /** Milliseconds until the window ends and the count starts again from zero. */
  resetInMs: number;
};

/**
 * Fixed-window counters for throttling. The count is taken before the guarded work is done, so
 * fifty requests arriving together cannot all slip under the limit.
 */
export type RateLimitStore = {
  kind: 'redis' | 'memory';
  hit(key: string, windowMs: number): Promise<TRateLimitHit>;
  reset(key: string): Promise<void>;
  close(): Promise<void>;
};

export type TRateLimitRule = { limit: number; windowMs: number };

/** Counts a hit and says whether it went over the rule's limit. */
export async function consume(
  store: RateLimitStore,
  key: string,
  rule: TRateLimitRule,
): Promise<{ allowed: boolean; retryAfterSeconds: number }> {
  const { count, resetInMs } = await store.hit(key, rule.windowMs);
  return { allowed: count <= rule.limit, retryAfterSeconds: Math.max(1, Math.ceil(resetInMs / 1000)) };
}

export function createMemoryRateLimitStore(now: () => number = Date.now): RateLimitStore {
  const windows = new Map<string, { count: number; resetAt: number }>();
  // Expired windows are dropped now and then, so keys for one-off addresses do not pile up.
  const sweep = setInterval(() => {
    const at = now();
    for (const [key, window] of windows) if (window.resetAt <= at) windows.delete(key);
  }, 60_000);
  sweep.unref();
  return {
    kind: 'memory',
    async hit(key, windowMs) {
      const at = now();
      let window = windows.get(key);
      if (!window || window.resetAt <= at) {
        window = { count: 0, resetAt: at + windowMs };
        windows.set(key, window);
      }
      window.count += 1;
      return { count: window.count, resetInMs: window.resetAt - at };
    },
    async reset(key) {
      windows.delete(key);
    },
    async close() {
      clearInterval(sweep);
      windows.clear();
    },
  };
}

// INCR and PEXPIRE in one step: a crash between them can never leave a counter without expiry.
const HIT_SCRIPT = `
local count = redis.call('INCR', KEYS[1])
local ttl = redis.call('PTTL', KEYS[1])
if ttl < 0 then
  redis.call('PEXPIRE', KEYS[1], ARGV[1])
  ttl = tonumber(ARGV[1])
end
return { count, ttl }
`;

/**
 * Counters shared by every API process. When Redis cannot answer, the hit is let through and
 * logged: a Redis outage should not lock everyone out of the portal (argon2's cost still slows
 * guessing).
 */
export function createRedisRateLimitStore(redisUrl: string, logger: Logger, prefix = 'portal'): RateLimitStore {
  const redis = new Redis(redisUrl, { maxRetriesPerRequest: 1 });
  redis.on('error', (err) => logger.warn({ err }, 'rate-limit redis connection error'));
  const keyOf = (key: string) => `${prefix}:rl:${key}`;
  return {
    kind: 'redis',
    async hit(key, windowMs) {
      try {
        const [count, ttl] = (await redis.eval(HIT_SCRIPT, 1, keyOf(key), String(windowMs))) as [number, number];
        return { count, resetInMs: ttl };
      } catch (err) {
        logger.warn({ err, key }, 'rate limit not checked: redis did not answer');
        return { count: 0, resetInMs: windowMs };
      }
    },
    async reset(key) {
      await redis.del(keyOf(key)).catch((err: unknown) => logger.warn({ err, key }, 'rate limit not reset'));
    },
    async close() {
      redis.disconnect();
    },
  };
}
