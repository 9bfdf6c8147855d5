/** The icon of a file's chip, by its type: a picture, a plain text, or any other document. */
export function fileIcon(type: string): 'image' | 'text' | 'document' {
  if (type.startsWith('image/')) return 'image';
  if (type.startsWith('text/') || type === 'application/json') return 'text';
  return 'document';
}
