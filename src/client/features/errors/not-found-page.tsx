import { NotFoundPanel } from '@/components/errors/not-found-panel.tsx';
import { useDocumentTitle } from '@/lib/use-document-title.ts';

export function NotFoundPage() {
  useDocumentTitle('Page not found');
  return (
    <div className="flex flex-1 items-center justify-center">
      <NotFoundPanel />
    </div>
  );
}
