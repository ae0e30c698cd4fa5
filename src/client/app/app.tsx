import { StrictMode, type ReactNode } from 'react';
import { AppRoutes } from '@/app/router.tsx';
import { ToasterOutlet } from '@/app/toaster-outlet.tsx';
import { AppErrorBoundary } from '@/features/errors/app-error-boundary.tsx';

/**
 * The whole app inside `router`'s kind of router: <BrowserRouter> in the browser (main.tsx),
 * <StaticRouter> when the server renders a public page ahead of its code (prerender.tsx). Both
 * render this same tree, so the browser can hydrate what the server sent.
 */
export function App({ Router }: { Router: (props: { children: ReactNode }) => ReactNode }) {
  return (
    <StrictMode>
      <AppErrorBoundary>
        <Router>
          <AppRoutes />
        </Router>
        <ToasterOutlet />
      </AppErrorBoundary>
    </StrictMode>
  );
}
