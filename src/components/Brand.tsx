import { useSelector } from '@xstate/react';
import { Link } from 'wouter';
import { useActors } from '../app/ActorsContext';
import { textDir } from '../i18n/bidi';
import { useT } from '../i18n/useT';

/** Parley, or the organization's own name when the host names one: shortened at its own end. */
export function Brand() {
  const { organization } = useActors();
  const t = useT();
  const name = useSelector(organization, (snapshot) => snapshot.context.organization?.name) ?? t('Parley');
  return (
    <Link href="/list" className="brand">
      <span dir={textDir(name)}>{name}</span>
    </Link>
  );
}
