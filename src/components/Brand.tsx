import { useSelector } from '@xstate/react';
import { Link } from 'wouter';
import { useActors } from '../app/ActorsContext';
import { T } from '../i18n/T';

/** Parley, or the organization's own name when the host names one. */
export function Brand() {
  const { organization } = useActors();
  const name = useSelector(organization, (snapshot) => snapshot.context.organization?.name);
  return (
    <Link href="/list" className="brand">
      {name ?? <T>Parley</T>}
    </Link>
  );
}
