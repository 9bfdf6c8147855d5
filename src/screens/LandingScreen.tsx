import { Link } from 'wouter';
import { useDocumentTitle } from '../app/useDocumentTitle';
import { PageLayout } from '../components/PageLayout';
import { T } from '../i18n/T';
import { useQuery } from '../routing/address';

/** The logged-out start page: what Parley is, and the ways in. */
export function LandingScreen() {
  useDocumentTitle('');
  // Keep returnUrl, so the user comes back to the page that sent them here.
  const search = useQuery().toString();
  const query = search ? `?${search}` : '';
  return (
    <PageLayout>
      <h1>
        <T>Parley</T>
      </h1>
      <p className="lead">
        <T>Chat with AI bots, in your language.</T>
      </p>
      <ul className="features">
        <li>
          <T>Pick a bot by category: assistants, tools, translators and more.</T>
        </li>
        <li>
          <T>Replies stream as they are written, and you can stop them at any time.</T>
        </li>
        <li>
          <T>Your conversations are kept, so you can pick them up later.</T>
        </li>
      </ul>
      <div className="actions">
        <Link href={`/register${query}`} className="button primary">
          <T>Register</T>
        </Link>
        <Link href={`/login${query}`} className="button">
          <T>Log in</T>
        </Link>
      </div>
    </PageLayout>
  );
}
