import { Component, type ReactNode } from 'react';
import { useLocation } from 'react-router-dom';
import { RouteErrorPage } from '@/features/errors/route-error-page.tsx';

type Props = { children: ReactNode; resetKey: string };
type State = { error: unknown; resetKey: string };

class Boundary extends Component<Props, State> {
  constructor(props: Props) {
    super(props);
    this.state = { error: undefined, resetKey: props.resetKey };
  }

  static getDerivedStateFromError(error: unknown): Partial<State> {
    return { error };
  }

  // Once the visitor goes to another page, forget the failure and render again.
  static getDerivedStateFromProps(props: Props, state: State): Partial<State> | null {
    return props.resetKey === state.resetKey ? null : { error: undefined, resetKey: props.resetKey };
  }

  override render() {
    return this.state.error === undefined ? this.props.children : <RouteErrorPage error={this.state.error} />;
  }
}

/**
 * Stands where a data router's errorElement would: catches a page that fails to load (a chunk that
 * will not download) or to render, shows the route-error screen, and tries again on navigation.
 * React reports the caught error on the console itself.
 */
export function RouteErrorBoundary({ children }: { children: ReactNode }) {
  const { pathname } = useLocation();
  return <Boundary resetKey={pathname}>{children}</Boundary>;
}
