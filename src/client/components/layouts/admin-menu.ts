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
} from 'lucide-react';

export const ADMIN_BASE_PATH = '/admin-dashboard';

export type TAdminMenuItem = { label: string; path: string; icon: LucideIcon };
export type TAdminMenuGroup = { title: string; description: string; icon: LucideIcon; items: TAdminMenuItem[] };

/** The admin area's menu (spec section 2, "Admin layout"); paths are relative to ADMIN_BASE_PATH. */
export const ADMIN_MENU: readonly TAdminMenuGroup[] = [
  {
    title: 'Users',
    description: 'Approve new sign-ups and look up seafarers’ profiles and documents.',
    icon: Users,
    items: [
      { label: 'Unapproved Users', path: 'unapproved-users', icon: UserRoundX },
      { label: 'Approved Users', path: 'approved-users', icon: UserCheck },
      { label: 'User Profiles', path: 'user-profiles', icon: IdCard },
    ],
  },
  {
    title: 'Courses',
    description: 'Publish courses, keep them up to date and answer enrolment requests.',
    icon: BookOpen,
    items: [
      { label: 'All Courses', path: 'courses', icon: GraduationCap },
      { label: 'Create Course', path: 'create-course', icon: SquarePlus },
      { label: 'User Enrollment Request', path: 'enrollment-request', icon: MailQuestion },
    ],
  },
  {
    title: 'Training',
    description: 'Upload the training videos learners watch before their test.',
    icon: Video,
    items: [
      { label: 'Upload Training Video', path: 'training-video', icon: Upload },
      { label: 'All Training Videos', path: 'All-training-video', icon: PlaySquare },
    ],
  },
  {
    title: 'Test',
    description: 'Write tests, publish them to learners and review their results.',
    icon: ClipboardList,
    items: [
      { label: 'Create Test', path: 'test-form', icon: FilePlus2 },
      { label: 'All Tests', path: 'All-tests', icon: FileText },
      { label: 'Published Tests', path: 'Published-tests', icon: Send },
      { label: 'User Results', path: 'user-results', icon: ListChecks },
    ],
  },
];

export function adminPath(path: string): string {
  return `${ADMIN_BASE_PATH}/${path}`;
}
