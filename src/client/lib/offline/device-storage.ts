/*
 * The browser's storage for the site: asked to persist before a download starts, and its estimate
 * read to say whether a course will fit.
 */

/** Asks the browser to keep the site's storage when space runs low (it may say no; the download goes on). */
export async function askToPersist() {
  try {
    await navigator.storage?.persist?.();
  } catch {
    // Not offered here: nothing to do.
  }
}

/** The browser's account of the site's storage, or null when it gives none. */
export async function storageEstimate(): Promise<{ quota?: number; usage?: number } | null> {
  try {
    return (await navigator.storage?.estimate?.()) ?? null;
  } catch {
    return null;
  }
}
