import {
  BookOpen,
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
  ListChecks,
  FileSearch,
} from 'lucide-react';
import { paths } from '@/config/paths.ts';

/** The id of the admin menu's drawer, which the menu button controls. */
export const ADMIN_MENU_DRAWER_ID = 'admin-menu-drawer';

export type TAdminMenuItem = { label: string; to: string; icon: LucideIcon };
export type TAdminMenuGroup = { title: string; description: string; icon: LucideIcon; items: TAdminMenuItem[] };

/** The admin area's menu (spec section 2, "Admin layout"). */
export const ADMIN_MENU: readonly TAdminMenuGroup[] = [
  {
    title: 'Users',
    description: 'Approve new sign-ups and look up seafarers’ profiles and documents.',
    icon: Users,
    items: [
      { label: 'Unapproved Users', to: paths.admin.users.unapproved, icon: UserRoundX },
      { label: 'Approved Users', to: paths.admin.users.approved, icon: UserCheck },
      { label: 'User Profiles', to: paths.admin.users.profiles, icon: IdCard },
    ],
  },
  {
    title: 'Courses',
    description: 'Publish courses, keep them up to date and answer enrolment requests.',
    icon: BookOpen,
    items: [
      { label: 'All Courses', to: paths.admin.courses.list, icon: GraduationCap },
      { label: 'Create Course', to: paths.admin.courses.create, icon: SquarePlus },
      { label: 'User Enrollment Request', to: paths.admin.courses.enrolmentRequests, icon: MailQuestion },
    ],
  },
  {
    title: 'Training',
    description: 'Upload the training videos learners watch before their test.',
    icon: Video,
    items: [
      { label: 'Upload Training Video', to: paths.admin.training.upload, icon: Upload },
      { label: 'All Training Videos', to: paths.admin.training.list, icon: PlaySquare },
    ],
  },
  {
    title: 'Test',
    description: 'Write tests, publish them to learners, review their results and the evidence behind certificates.',
    icon: ClipboardList,
    items: [
      { label: 'Create Test', to: paths.admin.tests.create, icon: FilePlus2 },
      { label: 'All Tests', to: paths.admin.tests.list, icon: FileText },
      { label: 'Published Tests', to: paths.admin.tests.published, icon: Send },
      { label: 'User Results', to: paths.admin.tests.results, icon: ListChecks },
      { label: 'Certificate Evidence', to: paths.admin.tests.evidence, icon: FileSearch },
    ],
  },
];
