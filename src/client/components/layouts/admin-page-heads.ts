import { paths } from '@/config/paths.ts';

/** How wide an admin screen may grow: narrow for forms, wide for lists of cards. */
export type TAdminPageWidth = '3xl' | '5xl' | '6xl';

/** An admin screen's heading, its one line of explanation, and its width. */
export type TAdminPageHead = { title: string; description: string; width?: TAdminPageWidth };

/**
 * The headings of the admin screens whose heading does not depend on their data, by route. The
 * screen draws its heading from here, and so does the frame the server sends for its page
 * (decision 040): the administrator reads where they are before the screen's code has come, and
 * the heading stays where it is when the screen replaces the frame.
 */
export const ADMIN_PAGE_HEADS = {
  [paths.admin.users.unapproved]: {
    title: 'Unapproved Users',
    description: 'Learners who have verified their email and wait for approval before they can enrol in courses.',
  },
  [paths.admin.users.approved]: {
    title: 'Approved Users',
    description: 'Learners who may request enrolment in courses.',
  },
  [paths.admin.users.profiles]: {
    width: '6xl',
    title: 'User Profiles',
    description: "Seafarers' details and identity documents, newest first. Expired or soon-expiring passports and CDCs are flagged.",
  },
  [paths.admin.courses.list]: {
    width: '6xl',
    title: 'All Courses',
    description: 'Every course the academy offers. Inactive courses are hidden from the catalogue and take no new requests.',
  },
  [paths.admin.courses.enrolmentRequests]: {
    width: '6xl',
    title: 'User Enrollment Requests',
    description: "Learners' requests for courses. Accept a pending or rejected request to open the course to the learner; reject one to close it.",
  },
  [paths.admin.training.upload]: {
    width: '3xl',
    title: 'Upload Training Videos',
    description: 'Choose a course and add its training videos. Each file becomes the next part of the course’s training, in the order listed.',
  },
  [paths.admin.training.list]: {
    title: 'All Uploaded Training Videos',
    description: 'Each course’s training videos, part by part, in the order learners watch them.',
  },
  [paths.admin.tests.create]: {
    width: '3xl',
    title: 'Create New Test',
    description: 'Choose an active course, set the pass mark and write the questions. A new test is unpublished until you publish it from All Tests.',
  },
  [paths.admin.tests.list]: {
    title: 'All Created Tests',
    description: "Publish a test to open it to the course's learners who finished the training; unpublish it to close it.",
  },
  [paths.admin.tests.published]: {
    title: 'Published Tests',
    description: 'The tests open to learners now. Publish or unpublish them from All Tests.',
  },
  [paths.admin.tests.results]: {
    title: 'Test Results',
    description: 'Every submitted test, newest first. Open a result to see the answers given beside the correct ones.',
  },
  [paths.admin.tests.evidence]: {
    width: '3xl',
    title: 'Certificate Evidence',
    description: 'The record behind a course’s certificates for an auditor, as one CSV file: the training watched, every refused report and every test attempt.',
  },
} satisfies Record<string, TAdminPageHead>;

/** The heading of the admin screen at `pathname`, when it is one of those above. */
export function adminPageHead(pathname: string): TAdminPageHead | undefined {
  return Object.hasOwn(ADMIN_PAGE_HEADS, pathname) ? ADMIN_PAGE_HEADS[pathname as keyof typeof ADMIN_PAGE_HEADS] : undefined;
}
