import { useSelector } from '@xstate/react';
import type { Bot, Category } from '../../api/types';
import { useActors } from '../../app/ActorsContext';
import { CategoryFilter } from '../CategoryFilter';
import { categoriesOf } from '../categoriesOf';

/** The category filter, in the panel: the way to filter on a phone. */
export function BotFilterView() {
  const { bots } = useActors();
  const all = useSelector(bots, (snapshot) => snapshot.context.bots) as Bot[];
  const selected = useSelector(bots, (snapshot) => snapshot.context.categoryIds);
  const categories: Category[] = categoriesOf(all);
  return (
    <CategoryFilter
      categories={categories}
      selected={selected}
      onChange={(categoryIds) => bots.send({ type: 'FILTER', categoryIds })}
    />
  );
}
