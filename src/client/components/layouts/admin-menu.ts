import {
  Award,
  Building2,
  Settings,
  UsersRound,
  BookOpen,
  FileSpreadsheet,
  ClipboardList,
  FilePlus2,
  FileText,
  GraduationCap,
  IdCard,
  type LucideIcon,
  MailQuestion,
  PlaySquare,
  SquarePlus,
  Upload,
  UserCheck,
  UserRoundX,
  Users,
  Video,
  Send,
  ShieldCheck,
  ListChecks,
  FileSearch,
  File,
  ScrollText,
  UserCog,
} from 'lucide-react';
import { staffMay, type TStaffPermission, type TStaffRole } from '../../../shared/staff-roles.ts';
import { paths } from '@/config/paths.ts';
import { SCREEN_ROUTES } from '@/config/routes.ts';

/** The id of the admin menu's drawer, which the menu button controls. */
export const ADMIN_MENU_DRAWER_ID = 'admin-menu-drawer';

/** A link of the menu, with the permission its screen needs (the menu shows a member only theirs). */
export type TAdminMenuItem = { label: string; to: string; icon: LucideIcon; permission?: TStaffPermission };
export type TAdminMenuGroup = { title: string; description: string; icon: LucideIcon; items: TAdminMenuItem[] };

/** The menu's groups, in order; their links are the table's entries with a `menu` of that group. */
const GROUPS: ReadonlyArray<Omit<TAdminMenuGroup, 'items'>> = [
  { title: 'Users', description: 'Approve new sign-ups and look up seafarers’ profiles and documents.', icon: Users },
  { title: 'Courses', description: 'Publish courses, keep them up to date and answer enrolment requests.', icon: BookOpen },
  { title: 'Training', description: 'Upload the training videos learners watch before their test.', icon: Video },
  {
    title: 'Test',
    description: 'Write tests, publish them to learners, review their results and the evidence behind certificates.',
    icon: ClipboardList,
  },
  { title: 'Certificates', description: 'Find, revoke and re-issue certificates, send expiry reminders and export a batch for the regulator.', icon: Award },
  { title: 'Audit', description: 'Every staff action recorded: search it, download it, and check that nothing was altered.', icon: ScrollText },
  { title: 'Academy', description: 'Invite staff, give each member a role, and set how staff sign in.', icon: Building2 },
  { title: 'Account', description: 'Your own sign-in: second factors and recovery codes.', icon: UserCog },
];

/** Each link's icon by its route; a page without one here shows a plain page icon. */
const ICONS: Record<string, LucideIcon> = {
  [paths.admin.users.unapproved]: UserRoundX,
  [paths.admin.users.approved]: UserCheck,
  [paths.admin.users.profiles]: IdCard,
  [paths.admin.users.identityChecks]: ShieldCheck,
  [paths.admin.courses.list]: GraduationCap,
  [paths.admin.courses.create]: SquarePlus,
  [paths.admin.courses.enrolmentRequests]: MailQuestion,
  [paths.admin.training.upload]: Upload,
  [paths.admin.training.list]: PlaySquare,
  [paths.admin.tests.create]: FilePlus2,
  [paths.admin.tests.list]: FileText,
  [paths.admin.tests.published]: Send,
  [paths.admin.tests.results]: ListChecks,
  [paths.admin.tests.evidence]: FileSearch,
  [paths.admin.certificates.list]: Award,
  [paths.admin.certificates.regulatorExport]: FileSpreadsheet,
  [paths.admin.audit]: ScrollText,
  [paths.admin.staff.list]: UsersRound,
  [paths.admin.staff.settings]: Settings,
  [paths.admin.security]: ShieldCheck,
};

/** The admin area's menu (spec section 2, "Admin layout"), from the route table's `menu` entries. */
export const ADMIN_MENU: readonly TAdminMenuGroup[] = GROUPS.map((group) => ({
  ...group,
  items: SCREEN_ROUTES.flatMap(({ pattern, menu, permission }) =>
    menu?.group === group.title ? [{ label: menu.label, to: pattern, icon: ICONS[pattern] ?? File, ...(permission ? { permission } : {}) }] : [],
  ),
}));

/** The menu a member of staff sees: the links their role may use, and the groups that keep one. */
export function adminMenuFor(staffRole: TStaffRole | null | undefined): readonly TAdminMenuGroup[] {
  return ADMIN_MENU.map((group) => ({ ...group, items: group.items.filter((item) => !item.permission || staffMay(staffRole, item.permission)) })).filter(
    (group) => group.items.length > 0,
  );
}

/** The menu groups the route table names that the menu does not have (a test holds this empty). */
export const UNKNOWN_MENU_GROUPS: readonly string[] = SCREEN_ROUTES.flatMap(({ menu }) =>
  menu && !GROUPS.some((group) => group.title === menu.group) ? [menu.group] : [],
);
