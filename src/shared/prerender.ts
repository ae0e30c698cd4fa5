/*
 * The public pages the server renders for a visitor before their code arrives (decision 026):
 * the markers both sides read, and the one inline script of the page.
 */

/** On the page's root element when it holds the server's rendering of the visitor's view. */
export const PRERENDERED_ATTRIBUTE = 'data-prerendered';

/** On <html> while this browser holds a session: the visitor's view is not this user's view. */
export const SESSION_HINT_ATTRIBUTE = 'data-session';

/**
 * Runs in the page's head before anything paints: when a session is stored (the client's
 * `accessToken` key, lib/session.ts), it marks <html> so the stylesheet keeps the visitor's view
 * hidden and the app renders the user's own. The content security policy allows exactly this
 * text by its hash.
 */
export const SESSION_HINT_SCRIPT = `try{if(localStorage.getItem("accessToken")!==null)document.documentElement.setAttribute("${SESSION_HINT_ATTRIBUTE}","")}catch(e){}`;
