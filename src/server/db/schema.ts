/**
 * Every table, for drizzle's relational queries and for drizzle-kit. Tables live one area per file
 * in ./schema/.
 */
export * from './schema/enums.ts';
export * from './schema/users.ts';
export * from './schema/auth-tokens.ts';
export * from './schema/profiles.ts';
export * from './schema/courses.ts';
export * from './schema/training.ts';
export * from './schema/offline.ts';
export * from './schema/tests.ts';
export * from './schema/certificates.ts';
export * from './schema/jobs.ts';
export * from './schema/audit.ts';
export * from './schema/staff.ts';
export * from './schema/second-factors.ts';
