import { useSelector } from '@xstate/react';
import { useActors } from '../../app/ActorsContext';
import { CategoryFilter } from '../CategoryFilter';
import { categoriesOf } from '../categoriesOf';

/** The category filter, in the panel: the way to filter on a phone. */
export function BotFilterView() {
  const { bots } = useActors();
  const all = useSelector(bots, (snapshot) => snapshot.context.bots);
  const selected = useSelector(bots, (snapshot) => snapshot.context.categoryIds);
  return (
    <CategoryFilter
      categories={categoriesOf(all)}
      selected={selected}
      onChange={(categoryIds) => bots.send({ type: 'FILTER', categoryIds })}
    />
  );
}
