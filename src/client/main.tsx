import './styles.css';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { RouterProvider } from 'react-router-dom';
import { router } from '@/app/router.tsx';
import { ToasterOutlet } from '@/app/toaster-outlet.tsx';
import { AppErrorBoundary } from '@/features/errors/app-error-boundary.tsx';

const container = document.getElementById('root');
if (!container) throw new Error('index.html has no #root element to render into.');

createRoot(container).render(
  <StrictMode>
    <AppErrorBoundary>
      <RouterProvider router={router} />
      <ToasterOutlet />
    </AppErrorBoundary>
  </StrictMode>,
);
