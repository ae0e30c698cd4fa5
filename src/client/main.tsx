import '@/lib/zod-without-eval.ts';
import './styles.css';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { BrowserRouter } from 'react-router-dom';
import { AppRoutes, preloadFirstScreen } from '@/app/router.tsx';
import { ToasterOutlet } from '@/app/toaster-outlet.tsx';
import { AppErrorBoundary } from '@/features/errors/app-error-boundary.tsx';

const container = document.getElementById('root');
if (!container) throw new Error('index.html has no #root element to render into.');

// The screen's code first (a failed load is the error boundary's to show on that render).
void preloadFirstScreen(window.location.pathname).then(() => {
  createRoot(container).render(
    <StrictMode>
      <AppErrorBoundary>
        <BrowserRouter>
          <AppRoutes />
        </BrowserRouter>
        <ToasterOutlet />
      </AppErrorBoundary>
    </StrictMode>,
  );
});
