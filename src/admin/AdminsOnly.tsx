import { Link } from 'wouter';
import { T } from '../i18n/T';

/** What a member sees at `/admin`: why they cannot enter, and the way back. */
export function AdminsOnly() {
  return (
    <main id="main" className="page">
      <h1>
        <T>Admins only</T>
      </h1>
      <p className="lead">
        <T>Only the owners and admins of this organization can open the admin area.</T>
      </p>
      <p>
        <Link href="/list" className="button primary">
          <T>Back to chats</T>
        </Link>
      </p>
    </main>
  );
}
