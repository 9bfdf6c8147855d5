import { Link } from 'wouter';
import { useDocumentTitle } from '../app/useDocumentTitle';
import { PageLayout } from '../components/PageLayout';
import { T } from '../i18n/T';
import { useT } from '../i18n/useT';

/** Where a 401 on a change (PATCH or DELETE) lands: the session has ended, nothing else is wrong. */
export function WelcomeScreen() {
  const t = useT();
  useDocumentTitle(t('Your session has ended'));
  return (
    <PageLayout>
      <h1>
        <T>Your session has ended</T>
      </h1>
      <p className="lead">
        <T>Please log in again to continue where you left off.</T>
      </p>
      <div className="actions">
        <Link href="/login" className="button primary">
          <T>Log in</T>
        </Link>
      </div>
    </PageLayout>
  );
}
