import { describe, expect, it } from 'vitest';
import {
  commandOf,
  commandProblem,
  fillPlaceholders,
  type Prompt,
  placeholdersOf,
  promptsMatching,
  promptTextProblem,
} from '../../../machines/promptText';

const prompt = (command: string, title: string): Prompt => ({
  _id: command,
  command,
  title,
  text: '',
  visibility: 'private',
});

describe('a prompt’s grammar (the server, the / menu and the palette share it)', () => {
  it('keeps a command without its slash, in lower case, letters of any script', () => {
    expect(commandOf('  /Summary ')).toBe('summary');
    expect(commandProblem(commandOf('/Περίληψη_2'))).toBeNull();
    expect(commandProblem('two words')).toMatch(/only letters, digits/);
    expect(commandProblem('_x')).toMatch(/starts with a letter or a digit/);
    expect(commandProblem('')).toMatch(/Write the command/);
  });

  it('finds each placeholder once, in order, and fills them, leaving unknown ones as written', () => {
    const text = 'Translate {{text}} into {{ language }}; {{text}} again, {{ other }} and $& {{}}';
    expect(placeholdersOf(text)).toEqual(['text', 'language', 'other', '']);
    expect(fillPlaceholders(text, { text: 'a $1 b', language: 'Deutsch' })).toBe(
      'Translate a $1 b into Deutsch; a $1 b again, {{ other }} and $& {{}}',
    );
    expect(promptTextProblem(text)).toMatch(/needs a name/);
    expect(promptTextProblem('Hi {{ name }}')).toBeNull();
  });

  it('lists the commands that start with the words first, then those that contain them or whose title does', () => {
    const prompts = [
      prompt('translate', 'Into a language'),
      prompt('tr', 'Short'),
      prompt('sum', 'Translate a summary'),
    ];
    expect(promptsMatching(prompts, 'tr').map((item) => item.command)).toEqual(['translate', 'tr', 'sum']);
    expect(promptsMatching(prompts, 'TRANS').map((item) => item.command)).toEqual(['translate', 'sum']);
    expect(promptsMatching(prompts, '').length).toBe(3);
    expect(promptsMatching(prompts, 'zz')).toEqual([]);
  });
});
