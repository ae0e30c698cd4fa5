import { paths } from '@/config/paths.ts';
import { AdminPage } from '@/components/layouts/admin-page.tsx';
import { adminPageHeadOf } from '@/components/layouts/admin-page-heads.ts';
import { usePublishedTests } from '@/features/admin-tests/api/use-tests.ts';
import { TestCard } from '@/features/admin-tests/test-card.tsx';
import { TestsListStates } from '@/features/admin-tests/tests-list-states.tsx';

/** /admin-dashboard/Published-tests: the tests learners can take now, read-only. */
export function PublishedTestsPage() {
  const tests = usePublishedTests();
  return (
    <AdminPage {...adminPageHeadOf(paths.admin.tests.published)}>
      <TestsListStates query={tests} empty="No published tests." emptyHint="Publish a test from All Tests and it appears here.">
        {(list) => (
          <ul className="grid gap-4">
            {list.map((test) => (
              <TestCard key={test.id} test={test} />
            ))}
          </ul>
        )}
      </TestsListStates>
    </AdminPage>
  );
}
