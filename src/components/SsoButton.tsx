import { useSelector } from '@xstate/react';
import { isSameSitePath } from '../../machines/session';
import { useActors } from '../app/ActorsContext';
import { useT } from '../i18n/useT';
import { useQuery } from '../routing/address';

/**
 * `Continue with <label>`: the organization's identity provider (OpenID Connect), when it has one. A plain
 * link, as the sign-in leaves the app for the provider's page and comes back to the login screen.
 */
export function SsoButton() {
  const t = useT();
  const { organization, session } = useActors();
  const subdomain = useSelector(organization, (snapshot) => snapshot.context.subdomain);
  const label = useSelector(organization, (snapshot) => snapshot.context.organization?.sso?.label);
  const checkedReturnUrl = useSelector(session, (snapshot) => snapshot.context.returnUrl);
  const asked = useQuery().get('returnUrl');
  if (!label) return null;
  const returnUrl = [asked, checkedReturnUrl].find(isSameSitePath) ?? '/list';
  const href = `/auth/oidc/start?${new URLSearchParams({ organization: subdomain, returnUrl })}`;
  return (
    <p className="sso">
      <a className="button primary" href={href}>
        {t('Continue with {label}').replace('{label}', label)}
      </a>
    </p>
  );
}
