import '@/lib/zod-without-eval.ts';
import './styles.css';
import { startTransition } from 'react';
import { createRoot, hydrateRoot } from 'react-dom/client';
import { BrowserRouter } from 'react-router-dom';
import { FRAME_ATTRIBUTE, PRERENDERED_ATTRIBUTE, SESSION_HINT_ATTRIBUTE } from '../shared/prerender.ts';
import { App } from '@/app/app.tsx';
import { replayHeldEvents, takeHeldEvents } from '@/app/page-wake.ts';
import { preloadFirstScreen } from '@/app/router.tsx';

const container = document.getElementById('root');
if (!container) throw new Error('index.html has no #root element to render into.');

// The screen's code first (a failed load is the error boundary's to show on that render).
void preloadFirstScreen(window.location.pathname).then(() => {
  const app = <App Router={BrowserRouter} />;
  // The server rendered a visitor's view of this public page (decision 026): a visitor's browser
  // takes it over as it is; a signed-in user's (the view is hidden, styles.css) renders anew.
  if (container.hasAttribute(PRERENDERED_ATTRIBUTE) && !document.documentElement.hasAttribute(SESSION_HINT_ATTRIBUTE)) {
    // As a transition, hydration yields to the browser every few milliseconds instead of holding
    // the main thread for the whole tree (the page is already on screen; a tap is not lost).
    startTransition(() => {
      hydrateRoot(container, app);
    });
    // What the visitor did before the code ran (held by the head script, decision 033).
    replayHeldEvents(takeHeldEvents());
    return;
  }
  // Nothing to replay on a view the user never saw.
  takeHeldEvents();
  // The server's frame of a signed-in page (decision 038) stays in view until React's first
  // commit, which clears the root as it draws the page; a hidden visitor's view goes now.
  if (!container.hasAttribute(FRAME_ATTRIBUTE)) container.replaceChildren();
  container.removeAttribute(PRERENDERED_ATTRIBUTE);
  container.removeAttribute(FRAME_ATTRIBUTE);
  // A transition too: the first render of a signed-in screen yields to the browser every few
  // milliseconds rather than holding the main thread for the whole tree.
  const root = createRoot(container);
  startTransition(() => {
    root.render(app);
  });
});
