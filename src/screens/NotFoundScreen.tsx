import { Link } from 'wouter';
import { PageLayout } from '../components/PageLayout';
import { T } from '../i18n/T';

export function NotFoundScreen() {
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
