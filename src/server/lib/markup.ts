const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

/** Text that can sit in an HTML or XML element, or in a quoted attribute, as text and nothing else. */
export const escapeMarkup = (text: string) => text.replace(/[&<>"']/g, (char) => ESCAPES[char]!);
