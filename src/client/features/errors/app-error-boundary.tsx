import { Component, type ErrorInfo, type ReactNode } from 'react';
import { COMMON_MESSAGES } from '../../../shared/common-messages.ts';
import { Button } from '@/components/ui/button.tsx';
import { ErrorScreen } from '@/features/errors/error-screen.tsx';
import { SiteConfigError } from '@/lib/site-config.ts';

type State = { error: unknown };

/** The last line of defence, around the router and the toaster (the routes have RouteErrorBoundary). */
export class AppErrorBoundary extends Component<{ children: ReactNode }, State> {
  override state: State = { error: undefined };

  static getDerivedStateFromError(error: unknown): State {
    return { error };
  }

  override componentDidCatch(error: unknown, info: ErrorInfo) {
    console.error('The application failed to render', error, info.componentStack);
  }

  override render() {
    const { error } = this.state;
    if (error === undefined) return this.props.children;
    const configProblem = error instanceof SiteConfigError;
    return (
      <ErrorScreen
        title={configProblem ? 'The site is not configured' : 'Something went wrong'}
        message={configProblem ? error.message : COMMON_MESSAGES.internal}
        actions={
          <Button size="lg" onClick={() => window.location.reload()}>
            Reload the page
          </Button>
        }
      />
    );
  }
}
