import { randomUUID } from 'node:crypto';
import type { Executor } from '../server/db/client.ts';
import { courses, users } from '../server/db/schema.ts';

/** Test data with unique values, so tests never depend on each other's rows. */
export async function createUser(db: Executor, overrides: Partial<typeof users.$inferInsert> = {}) {
  const unique = randomUUID().slice(0, 8);
  const [user] = await db
    .insert(users)
    .values({
      title: 'Mr',
      firstName: 'Arjun',
      lastName: `Nair ${unique}`,
      mobile: '9876543210',
      email: `seafarer-${unique}@example.com`,
      passwordHash: 'not-a-real-hash',
      role: 'learner',
      verifiedAt: new Date(),
      ...overrides,
    })
    .returning();
  return user!;
}

export async function createCourse(db: Executor, overrides: Partial<typeof courses.$inferInsert> = {}) {
  const unique = randomUUID().slice(0, 8);
  const [course] = await db
    .insert(courses)
    .values({
      title: `Basic Safety Training ${unique}`,
      description: 'Personal survival techniques, fire prevention and first aid.',
      duration: '5 days',
      price: 4500,
      category: 'STCW',
      subjects: ['Personal survival', 'Fire fighting'],
      ...overrides,
    })
    .returning();
  return course!;
}
