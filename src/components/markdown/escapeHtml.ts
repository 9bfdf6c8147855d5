const entities: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
};

/** Text made safe to place inside HTML, as text. */
export const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (char) => entities[char] ?? char);
