/**
 * A saved prompt's grammar, one for the server that checks it, the `/` menu and the command palette
 * that fill it: a command (what follows `/`), a title, and a text whose `{{name}}` placeholders are
 * asked for before the text lands in the message box.
 */

/** A saved prompt (`GET /api/v1/prompt`). */
export interface Prompt {
  _id: string;
  command: string;
  title: string;
  text: string;
  /** Private: the member's own; organization: every member's, written by an admin. */
  visibility: 'private' | 'organization';
}

export const maxCommand = 32;
export const maxPromptTitle = 100;
export const maxPromptText = 8000;
export const maxPlaceholders = 10;
export const maxPlaceholderName = 40;

/** Letters (any script) and digits, then also `-` and `_`: what can follow `/` without a space. */
const commandPattern = /^[\p{L}\p{N}][\p{L}\p{N}_-]*$/u;
/** `{{ name }}`: the spaces inside the braces are not part of the name. */
const placeholderPattern = /\{\{([^{}]*)\}\}/g;

/** A command as typed (`/Summary `) as it is kept: without the slash and spaces, in lower case. */
export const commandOf = (value: string) => value.normalize('NFKC').trim().replace(/^\//, '').toLowerCase();

/** Why a command (as `commandOf` keeps it) cannot be one, or null. */
export function commandProblem(command: string): string | null {
  if (!command) return 'Write the command, the word that follows /.';
  if ([...command].length > maxCommand) return `A command has ${maxCommand} characters at most.`;
  if (!commandPattern.test(command))
    return 'A command starts with a letter or a digit and has only letters, digits, - and _.';
  return null;
}

/** The placeholders of a text by name, each once, in the order they first appear. */
export function placeholdersOf(text: string): string[] {
  const names = [...text.matchAll(placeholderPattern)].map((match) => match[1].trim());
  return [...new Set(names)];
}

/** Why a prompt's text cannot be saved, or null. */
export function promptTextProblem(text: string): string | null {
  if (!text.trim()) return 'Write the prompt’s text.';
  if (text.length > maxPromptText)
    return `A prompt has ${maxPromptText.toLocaleString('en')} characters at most.`;
  const names = placeholdersOf(text);
  if (names.some((name) => !name)) return 'A placeholder needs a name between its braces: {{name}}.';
  if (names.some((name) => [...name].length > maxPlaceholderName))
    return `A placeholder’s name has ${maxPlaceholderName} characters at most.`;
  if (names.length > maxPlaceholders) return `A prompt has ${maxPlaceholders} placeholders at most.`;
  return null;
}

/** The text with each placeholder replaced by its value (a missing value leaves it as written). */
export function fillPlaceholders(text: string, values: Readonly<Record<string, string>>): string {
  return text.replace(placeholderPattern, (written, name: string) => values[name.trim()] ?? written);
}

/** The prompts whose command (or title) matches what follows `/`: commands that start with it first. */
export function promptsMatching(prompts: readonly Prompt[], query: string): Prompt[] {
  const wanted = commandOf(query);
  if (!wanted) return [...prompts];
  const starts = prompts.filter((prompt) => prompt.command.startsWith(wanted));
  const within = prompts.filter(
    (prompt) =>
      !prompt.command.startsWith(wanted) &&
      (prompt.command.includes(wanted) || prompt.title.toLowerCase().includes(wanted)),
  );
  return [...starts, ...within];
}
