/** One thing the palette offers: what it says, and what choosing it does. */
export interface PaletteOption {
  id: string;
  label: string;
  /** A second line (a bot's description, a language's name in the page's language), matched too. */
  detail?: string;
  run: () => void;
}

export interface PaletteGroup {
  key: string;
  label: string;
  options: PaletteOption[];
}

/** Lower case without accents: typing an e finds an é. */
const folded = (text: string) =>
  text
    .normalize('NFD')
    .replace(/\p{Mn}/gu, '')
    .toLocaleLowerCase();

/** Whether the option has every word typed, in its label or its detail. */
export function matches(option: PaletteOption, query: string): boolean {
  const text = folded(`${option.label} ${option.detail ?? ''}`);
  return folded(query)
    .split(/\s+/)
    .every((word) => text.includes(word));
}

/** The groups with the options that match (conversations are matched by the server), empty groups left out. */
export function filterGroups(groups: PaletteGroup[], query: string): PaletteGroup[] {
  return groups
    .map((group) =>
      group.key === 'conversations'
        ? group
        : { ...group, options: group.options.filter((option) => matches(option, query)) },
    )
    .filter((group) => group.options.length > 0);
}
