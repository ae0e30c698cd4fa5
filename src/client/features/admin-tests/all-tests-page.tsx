import { EyeOff, Loader2, Send } from 'lucide-react';
import { toast } from 'sonner';
import { ADMIN_TOAST_MS, PUBLISH_TOAST_MS } from '../../../shared/constants.ts';
import { MESSAGES } from '../../../shared/messages.ts';
import type { TAdminTest } from '../../../shared/schemas/tests.ts';
import { paths } from '@/config/paths.ts';
import { AdminPage } from '@/components/layouts/admin-page.tsx';
import { adminPageHeadOf } from '@/components/layouts/admin-page-heads.ts';
import { Button } from '@/components/ui/button.tsx';
import { usePublishTest } from '@/features/admin-tests/api/use-publish-test.ts';
import { useAllTests } from '@/features/admin-tests/api/use-tests.ts';
import { TestCard } from '@/features/admin-tests/test-card.tsx';
import { TestsListStates } from '@/features/admin-tests/tests-list-states.tsx';
import { useStaffMay } from '@/lib/staff-role.ts';

const T = MESSAGES.tests;

/**
 * /admin-dashboard/All-tests: every test with its state and a Publish or Unpublish button; the
 * questions, their lettered options and the answers open under each test.
 */
export function AllTestsPage() {
  const tests = useAllTests();
  const { pendingId, setPublished } = usePublishTest();
  const mayEdit = useStaffMay('courses.edit');

  async function toggle(test: TAdminTest) {
    const outcome = await setPublished(test.id, !test.isPublished);
    if (outcome.ok) toast.success(outcome.message, { duration: PUBLISH_TOAST_MS, description: test.title });
    else toast.error(T.publishFailed, { duration: ADMIN_TOAST_MS, description: test.title });
  }

  return (
    <AdminPage {...adminPageHeadOf(paths.admin.tests.list)}>
      {tests.isError && tests.data && <p className="mb-4 text-sm font-medium text-destructive">{T.fetchFailed}</p>}
      <TestsListStates query={tests} empty="No tests yet." emptyHint="Tests you create appear here, unpublished until you publish them.">
        {(list) => (
          <ul className="grid gap-4">
            {list.map((test) => {
              const pending = pendingId === test.id;
              return (
                <TestCard
                  key={test.id}
                  test={test}
                  action={
                    mayEdit && (
                      <Button
                        variant={test.isPublished ? 'outline' : 'default'}
                        size="sm"
                        onClick={() => void toggle(test)}
                        disabled={pendingId !== null}
                        aria-busy={pending || undefined}
                        aria-label={`${test.isPublished ? 'Unpublish' : 'Publish'} ${test.title}`}
                      >
                        {pending ? <Loader2 className="animate-spin" aria-hidden /> : test.isPublished ? <EyeOff aria-hidden /> : <Send aria-hidden />}
                        {test.isPublished ? 'Unpublish' : 'Publish'}
                      </Button>
                    )
                  }
                />
              );
            })}
          </ul>
        )}
      </TestsListStates>
    </AdminPage>
  );
}
