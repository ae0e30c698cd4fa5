import { z } from 'zod';
import { MESSAGES } from '../messages.ts';
import { requestObject, ZId } from './common.ts';

const V = MESSAGES.validation;

export const USER_LIST_DEFAULT_PAGE_SIZE = 20;
export const USER_LIST_MAX_PAGE_SIZE = 100;
/** No one pages through a million screens; the bound keeps OFFSET cheap. */
const MAX_PAGE = 10_000;

export const ZUserListQuery = requestObject({
  page: z.number({ error: V.page }).int(V.page).min(1, V.page).max(MAX_PAGE, V.page).default(1),
  pageSize: z
    .number({ error: V.pageSize })
    .int(V.pageSize)
    .min(1, V.pageSize)
    .max(USER_LIST_MAX_PAGE_SIZE, V.pageSize)
    .default(USER_LIST_DEFAULT_PAGE_SIZE),
});
export type TUserListQuery = z.input<typeof ZUserListQuery>;

export const ZApproveUserRequest = requestObject({ userId: ZId });
export type TApproveUserRequest = z.output<typeof ZApproveUserRequest>;

/** One learner as an administrator reviews them. Dates are ISO 8601 strings. */
export const ZUserListItem = z.object({
  id: z.string(),
  title: z.string(),
  firstName: z.string(),
  lastName: z.string(),
  name: z.string(),
  email: z.string(),
  mobile: z.string(),
  verified: z.boolean(),
  registeredAt: z.string(),
  approvedAt: z.string().nullable(),
});
export type TUserListItem = z.infer<typeof ZUserListItem>;

export const ZUserPage = z.object({
  items: z.array(ZUserListItem),
  total: z.number().int(),
  page: z.number().int(),
  pageSize: z.number().int(),
});
export type TUserPage = z.infer<typeof ZUserPage>;

export const ZApproveUserResult = z.object({ message: z.string(), user: ZUserListItem });
export type TApproveUserResult = z.infer<typeof ZApproveUserResult>;
