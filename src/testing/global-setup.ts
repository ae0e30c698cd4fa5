import { randomBytes } from 'node:crypto';
import postgres from 'postgres';
import type { TestProject } from 'vitest/node';
import { startS3Server } from './storage.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    databaseUrl: string | undefined;
    redisUrl: string | undefined;
    /** An S3-compatible server (s3rver) for the tests that run on both storage drivers. */
    s3Endpoint: string;
  }
}

/**
 * With TEST_DATABASE_URL set, every run gets a database of its own on that server (created here,
 * dropped afterwards), so runs never see each other's rows. Without it, each test file opens an
 * in-memory PGlite.
 */
export default async function setup(project: TestProject) {
  const base = process.env.TEST_DATABASE_URL || undefined;
  const redisUrl = process.env.TEST_REDIS_URL || undefined;
  project.provide('redisUrl', redisUrl);
  const s3 = await startS3Server();
  project.provide('s3Endpoint', s3.endpoint);
  const label = project.name;
  process.stdout.write(
    `[${label}] database: ${base ? 'PostgreSQL (a fresh database on TEST_DATABASE_URL)' : 'embedded PGlite (in memory)'}; ` +
      `jobs: ${redisUrl ? 'in-process and BullMQ on TEST_REDIS_URL' : 'in-process only (set TEST_REDIS_URL for BullMQ)'}\n`,
  );
  if (!base) {
    project.provide('databaseUrl', undefined);
    return () => s3.close();
  }
  const name = `portal_test_${randomBytes(5).toString('hex')}`;
  const admin = postgres(base, { max: 1, onnotice: () => {} });
  const url = new URL(base);
  url.pathname = `/${name}`;
  try {
    await admin.unsafe(`create database ${name}`);
    const { openDatabase } = await import('../server/db/client.ts');
    const db = await openDatabase({ url: url.toString(), maxConnections: 1 });
    await db.migrate();
    await db.close();
  } catch (error) {
    await admin.unsafe(`drop database if exists ${name} with (force)`).catch(() => {});
    await admin.end();
    await s3.close();
    throw error;
  }
  project.provide('databaseUrl', url.toString());

  return async () => {
    await admin.unsafe(`drop database if exists ${name} with (force)`);
    await admin.end();
    await s3.close();
  };
}
