import { eq } from 'drizzle-orm';
import type { Executor } from '../../db/client.ts';
import { users } from '../../db/schema.ts';

export async function findSessionUserById(db: Executor, id: string) {
  const [row] = await db
    .select({
      id: users.id,
      email: users.email,
      firstName: users.firstName,
      lastName: users.lastName,
      role: users.role,
      verifiedAt: users.verifiedAt,
      approvedAt: users.approvedAt,
    })
    .from(users)
    .where(eq(users.id, id));
  return row;
}
