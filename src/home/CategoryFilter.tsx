import type { BotCategory } from '../../machines/bots';
import { T } from '../i18n/T';
import { useT } from '../i18n/useT';

interface CategoryFilterProps {
  categories: BotCategory[];
  selected: string[];
  onChange: (selected: string[]) => void;
}

/** Narrow the catalogue to some categories; none selected means every active bot (seed-spec §4). */
export function CategoryFilter({ categories, selected, onChange }: CategoryFilterProps) {
  const t = useT();
  const toggle = (id: string) =>
    onChange(selected.includes(id) ? selected.filter((item) => item !== id) : [...selected, id]);
  return (
    <fieldset className="category-filter">
      <legend>
        <T>Categories</T>
      </legend>
      <button
        type="button"
        className="chip-toggle"
        aria-pressed={selected.length === 0}
        onClick={() => onChange([])}
      >
        <T>All categories</T>
      </button>
      {categories.map((category) => (
        <button
          key={category._id}
          type="button"
          className="chip-toggle"
          aria-pressed={selected.includes(category._id)}
          onClick={() => toggle(category._id)}
        >
          {t(category.name)}
        </button>
      ))}
    </fieldset>
  );
}
