import { COMMON_MESSAGES } from './common-messages.ts';

/*
 * The public pages the server renders for a visitor before their code arrives (decisions 026 and
 * 033): the markers both sides read, and the one inline script of the page.
 */

/** On the page's root element when it holds the server's rendering of the visitor's view. */
export const PRERENDERED_ATTRIBUTE = 'data-prerendered';

/**
 * On the page's root element when it holds the server's frame of a signed-in page (decision 038):
 * the layout with the page's place loading, which the app replaces as it first renders.
 */
export const FRAME_ATTRIBUTE = 'data-frame';

/** On <html> while this browser holds a session: the visitor's view is not this user's view. */
export const SESSION_HINT_ATTRIBUTE = 'data-session';

/** On the link of the page's entry: the head script runs it when the page wakes. */
export const ENTRY_ATTRIBUTE = 'data-entry';

/**
 * On the links naming the page's code (its entry and the screen's chunks), which carry no `rel`
 * yet: the head script makes them module preloads once the page has painted.
 */
export const CODE_ATTRIBUTE = 'data-code';

/** The server's rendering of a page for a visitor: its markup, and the head it asks for. */
export type TVisitorView = { markup: string; title?: string; description?: string };

/** The events that wake a server-drawn page: the visitor is about to use it. */
export const WAKING_EVENTS = ['pointerdown', 'touchstart', 'keydown', 'input', 'change', 'click', 'submit'] as const;

/** A click or a submit that came before the code, for the app to replay once it has hydrated. */
export type THeldEvent = { form: HTMLFormElement; submitter: HTMLElement | null } | { button: HTMLButtonElement };

/** What the head script leaves on `window` for the app: the events it held, and how to stop holding. */
export type TPageWake = { held: THeldEvent[]; stop(): void };
export const PAGE_WAKE_GLOBAL = '__pageWake';
/** The notice the head script shows when a held tap's code could not be loaded. */
const WAKE_ALERT_ID = 'page-wake-alert';

/**
 * Runs in the page's head before anything paints.
 * - When a session is stored (the client's `accessToken` key, lib/session/session.ts), it marks <html> so
 *   the stylesheet keeps the visitor's view hidden and the app renders the user's own.
 * - The page's code is fetched once the page has painted (its first contentful paint is reported),
 *   so nothing competes with the stylesheet and the first pictures before it: the links naming it
 *   become module preloads then, or when the page wakes if that is earlier. A browser that does
 *   not report paints fetches it at the load event.
 * - That code is preloaded but not run (decision 033): it starts on the visitor's first tap,
 *   key or input, or at once when the page is not the visitor's view (a session, or the router's
 *   state from an earlier visit) or a logout made with no link is waiting (the client's
 *   `logoutPending` key): the app sends it as it starts, and again when the link returns. Until the app has hydrated, a submit or a button's click is
 *   held (no form goes out as a plain GET with its fields in the address) and replayed by the app.
 *   A failed load is tried again on the next interaction. If the visitor had tapped or submitted,
 *   the page says the network failed and drops what it held, so the next try is not sent twice.
 * The content security policy allows exactly this text by its hash.
 */
export const PAGE_HEAD_SCRIPT = `(function(){
var d=document,h=d.documentElement,held=[],started=false,now=false;
try{if(localStorage.getItem("accessToken")!==null){h.setAttribute("${SESSION_HINT_ATTRIBUTE}","");now=true}else if(localStorage.getItem("logoutPending")!==null)now=true}catch(e){}
try{if(history.state&&history.state.usr!=null)now=true}catch(e){}
function say(){var n=d.getElementById("${WAKE_ALERT_ID}");if(n)return;n=d.createElement("p");n.id="${WAKE_ALERT_ID}";n.setAttribute("role","alert");n.textContent=${JSON.stringify(COMMON_MESSAGES.networkError)};var s=n.style;s.position="fixed";s.left=s.right=s.bottom="1rem";s.margin="0 auto";s.maxWidth="28rem";s.padding="0.75rem 1rem";s.borderRadius="0.5rem";s.background="#991b1b";s.color="#fff";s.font="500 1rem/1.4 system-ui,sans-serif";s.textAlign="center";s.zIndex="2147483647";d.body.appendChild(n)}
function fetchCode(){d.querySelectorAll("link[${CODE_ATTRIBUTE}]").forEach(function(l){l.removeAttribute("${CODE_ATTRIBUTE}");l.rel="modulepreload"})}
function start(){if(started)return;started=true;fetchCode();d.querySelectorAll("link[${ENTRY_ATTRIBUTE}]").forEach(function(l){import(l.href).then(function(){var n=d.getElementById("${WAKE_ALERT_ID}");if(n)n.remove()},function(){started=false;if(held.length){held.length=0;say()}})})}
function wake(e){start();var t=e.target;if(e.type==="submit"){e.preventDefault();held.push({form:t,submitter:e.submitter||null})}else if(e.type==="click"&&t&&t.closest){var b=t.closest("button");if(b){e.preventDefault();held.push({button:b})}}}
var kinds=${JSON.stringify(WAKING_EVENTS)};
kinds.forEach(function(k){d.addEventListener(k,wake,true)});
window.${PAGE_WAKE_GLOBAL}={held:held,stop:function(){kinds.forEach(function(k){d.removeEventListener(k,wake,true)})}};
if(now){if(d.readyState==="loading")d.addEventListener("DOMContentLoaded",start);else start()}
else{try{var o=new PerformanceObserver(function(l){if(l.getEntriesByName("first-contentful-paint").length){o.disconnect();fetchCode()}});o.observe({type:"paint",buffered:true})}catch(e){addEventListener("load",fetchCode)}}
})();`;
