import { PAGE_WAKE_GLOBAL, type THeldEvent, type TPageWake } from '../../shared/prerender.ts';

/*
 * The other half of the page's head script (decision 033): a server-drawn public page runs its
 * code when the visitor first uses it, and the clicks and submits that came before the code are
 * held there. Once the app has taken the page over, they are replayed on it.
 */

function pageWake(): TPageWake | undefined {
  return (window as unknown as Record<string, TPageWake | undefined>)[PAGE_WAKE_GLOBAL];
}

/** Stops holding the page's events and hands back the ones held so far (none without the head script). */
export function takeHeldEvents(): THeldEvent[] {
  const wake = pageWake();
  if (!wake) return [];
  wake.stop();
  return wake.held.splice(0);
}

/**
 * Replays held events on the page, in order. React hydrates the part a replayed event lands on
 * before it handles it, so this may run as soon as hydration has started.
 */
export function replayHeldEvents(held: THeldEvent[]): void {
  for (const event of held) {
    if ('button' in event) {
      if (event.button.isConnected) event.button.click();
    } else if (event.form.isConnected) {
      const { form, submitter } = event;
      // The button that sent the form, while it still belongs to it (else requestSubmit throws).
      form.requestSubmit(submitter && (submitter as HTMLButtonElement).form === form ? submitter : null);
    }
  }
}
