import { buildApp } from './app.ts';
import { EnvError, parseEnv, publicBaseUrl } from './env.ts';
import { DRAIN_LIMIT_MS } from './lib/draining.ts';
import { createLogger } from './lib/logger.ts';
import { ensureFirstAdmin } from './modules/auth/admin-setup.service.ts';
import { createRuntime } from './runtime.ts';


async function main() {
  const startedAt = performance.now();
  const env = parseEnv(process.env);
  const logger = createLogger(env.LOG_LEVEL);
  const runtime = await createRuntime(env, logger);
  await ensureFirstAdmin(runtime);
  const app = await buildApp(runtime);

  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    logger.info({ signal }, 'stopping');
    const force = setTimeout(() => {
      logger.error('shutdown took too long; exiting');
      process.exit(1);
    }, DRAIN_LIMIT_MS + 5_000);
    force.unref();
    try {
      // Requests first (lib/draining.ts), then the jobs, the files and the database.
      await app.close();
      await runtime.close();
      logger.info('stopped');
      process.exit(0);
    } catch (err) {
      logger.error({ err }, 'shutdown failed');
      process.exit(1);
    }
  };
  process.on('SIGTERM', () => void stop('SIGTERM'));
  process.on('SIGINT', () => void stop('SIGINT'));

  await app.listen({ port: env.PORT, host: env.HOST });
  logger.info(
    { url: publicBaseUrl(env), node: process.version, startupMs: Math.round(performance.now() - startedAt) },
    'portal listening',
  );
}

main().catch((err: unknown) => {
  if (err instanceof EnvError) {
    process.stderr.write(`${err.message}\n`);
  } else {
    process.stderr.write(`The portal could not start: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
  }
  process.exit(1);
});
