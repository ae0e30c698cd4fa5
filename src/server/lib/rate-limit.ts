import { Redis } from 'ioredis';
import type { Logger } from 'pino';
import { AppError } from './errors.ts';

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
  /** The current window's count without adding to it (0 when there is none). */
  peek(key: string): Promise<TRateLimitHit>;
  /** Takes `count` hits back from the current window (never below zero), its end unchanged. */
  takeBack(key: string, count: number): Promise<void>;
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

/**
 * Counts one hit on each limit in turn and refuses with 429 at the first one over its limit, with
 * the caller's message for the minutes left (and Retry-After). The one throttle every form uses.
 */
export async function throttle(
  deps: { rateLimit: RateLimitStore; logger: Logger },
  limits: ReadonlyArray<readonly [key: string, rule: TRateLimitRule]>,
  tooMany: (minutes: number) => string,
): Promise<void> {
  for (const [key, rule] of limits) {
    const gate = await consume(deps.rateLimit, key, rule);
    if (!gate.allowed) {
      deps.logger.warn({ key }, 'throttled');
      throw new AppError('TOO_MANY_REQUESTS', tooMany(Math.ceil(gate.retryAfterSeconds / 60)), {
        retryAfterSeconds: gate.retryAfterSeconds,
      });
    }
  }
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
    async peek(key) {
      const at = now();
      const window = windows.get(key);
      if (!window || window.resetAt <= at) return { count: 0, resetInMs: 0 };
      return { count: window.count, resetInMs: window.resetAt - at };
    },
    async takeBack(key, count) {
      const window = windows.get(key);
      if (window && window.resetAt > now()) window.count = Math.max(0, window.count - count);
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

// DECRBY keeps the key's expiry; a key already gone stays gone rather than coming back negative.
const TAKE_BACK_SCRIPT = `
local count = tonumber(redis.call('GET', KEYS[1]) or '0')
if count <= 0 then return 0 end
return redis.call('DECRBY', KEYS[1], math.min(count, tonumber(ARGV[1])))
`;

/** How long a throttle check may wait for Redis before it counts in this process instead. */
export const REDIS_LIMIT_TIMEOUT_MS = 150;

/**
 * Counters shared by every API process. When Redis is down or slow, each check falls back to this
 * process's own counters within REDIS_LIMIT_TIMEOUT_MS (limits still hold, per process), and the
 * log says so once when that starts and once when Redis answers again.
 */
export function createRedisRateLimitStore(redisUrl: string, logger: Logger, prefix = 'portal'): RateLimitStore {
  const redis = new Redis(redisUrl, {
    maxRetriesPerRequest: 1,
    // Without a connection a command fails at once instead of waiting in a queue.
    enableOfflineQueue: false,
    commandTimeout: REDIS_LIMIT_TIMEOUT_MS,
    connectTimeout: 1000,
  });
  const fallback = createMemoryRateLimitStore();
  let degraded = false;
  redis.on('error', () => {
    // Reported through `degraded` below, once, rather than at every reconnection attempt.
  });
  const keyOf = (key: string) => `${prefix}:rl:${key}`;

  async function withFallback<T>(key: string, viaRedis: () => Promise<T>, locally: () => Promise<T>): Promise<T> {
    if (redis.status === 'ready') {
      try {
        const result = await viaRedis();
        if (degraded) {
          degraded = false;
          logger.info('rate limits are counted in Redis again');
        }
        return result;
      } catch (err) {
        if (!degraded) logger.warn({ err, key }, 'Redis did not answer a rate-limit check: counting in this process until it does');
        degraded = true;
        return locally();
      }
    }
    if (!degraded) logger.warn({ key, status: redis.status }, 'Redis is not connected: rate limits are counted in this process until it is');
    degraded = true;
    return locally();
  }

  return {
    kind: 'redis',
    hit: (key, windowMs) =>
      withFallback(
        key,
        async () => {
          const [count, ttl] = (await redis.eval(HIT_SCRIPT, 1, keyOf(key), String(windowMs))) as [number, number];
          return { count, resetInMs: ttl };
        },
        () => fallback.hit(key, windowMs),
      ),
    peek: (key) =>
      withFallback(
        key,
        async () => {
          const [count, ttl] = await Promise.all([redis.get(keyOf(key)), redis.pttl(keyOf(key))]);
          return { count: Number(count ?? 0), resetInMs: Math.max(0, ttl) };
        },
        () => fallback.peek(key),
      ),
    takeBack: (key, count) =>
      withFallback(
        key,
        async () => {
          await redis.eval(TAKE_BACK_SCRIPT, 1, keyOf(key), String(count));
        },
        () => fallback.takeBack(key, count),
      ),
    reset: (key) =>
      withFallback(
        key,
        async () => {
          await Promise.all([redis.del(keyOf(key)), fallback.reset(key)]);
        },
        () => fallback.reset(key),
      ),
    async close() {
      await fallback.close();
      redis.disconnect();
    },
  };
}
