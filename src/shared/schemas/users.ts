import { z } from 'zod';
import { requestObject, ZId } from './common.ts';
import { pageFields, pageOf } from './paging.ts';

export const USER_LIST_DEFAULT_PAGE_SIZE = 20;
export const USER_LIST_MAX_PAGE_SIZE = 100;
export const ZUserListQuery = requestObject(pageFields({ defaultSize: USER_LIST_DEFAULT_PAGE_SIZE, maxSize: USER_LIST_MAX_PAGE_SIZE }));
export type TUserListQuery = z.input<typeof ZUserListQuery>;

export const ZApproveUserRequest = requestObject({ userId: ZId });

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

export const ZUserPage = pageOf(ZUserListItem);
export type TUserPage = z.infer<typeof ZUserPage>;

export const ZApproveUserResult = z.object({ message: z.string(), user: ZUserListItem });
export type TApproveUserResult = z.infer<typeof ZApproveUserResult>;
