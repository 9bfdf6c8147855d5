import { Link } from 'wouter';
import { useDocumentTitle } from '../app/useDocumentTitle';
import { PageLayout } from '../components/PageLayout';
import { T } from '../i18n/T';
import { useT } from '../i18n/useT';

export function NotFoundScreen() {
  const t = useT();
  useDocumentTitle(t('Page not found'));
  return (
    <PageLayout>
      <h1>
        <T>Page not found</T>
      </h1>
      <p className="lead">
        <T>There is nothing at this address.</T>
      </p>
      <div className="actions">
        <Link href="/list" className="button primary">
          <T>Go to your bots</T>
        </Link>
      </div>
    </PageLayout>
  );
}
