import { useSearchParams } from 'react-router-dom';

/** The list's page number, kept in the address (`?page=3`) so reloads and the back button keep it. */
export function usePageParam(): [number, (page: number) => void] {
  const [params, setParams] = useSearchParams();
  const parsed = Number(params.get('page'));
  const page = Number.isInteger(parsed) && parsed >= 1 ? parsed : 1;
  function setPage(next: number) {
    setParams(
      (current) => {
        const updated = new URLSearchParams(current);
        if (next <= 1) updated.delete('page');
        else updated.set('page', String(next));
        return updated;
      },
      { replace: false },
    );
  }
  return [page, setPage];
}
