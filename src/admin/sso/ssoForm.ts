/** The organization's identity provider as `GET /api/v1/admin/sso` answers it: the secret masked. */
export interface SsoSettings {
  issuer: string;
  clientId: string;
  /** `••••` and the secret's last characters when one is stored; empty or null when none. */
  clientSecret: string | null;
  scopes: string[];
  claims: { email: string; name: string; groups?: string | null };
  label: string;
  required: boolean;
  /** How many API keys of members and admins still work: with SSO required, a way in around the IdP. */
  memberApiKeys: number;
}

/** The change body: a left-out secret keeps the stored one. */
export type SsoRequest = Omit<SsoSettings, 'clientSecret' | 'memberApiKeys'> & { clientSecret?: string };

/** What the Sign-in screen changes: the settings (null turns SSO off), or every member's API key revoked. */
export type SsoChange = SsoRequest | null | { revokeApiKeys: true };

/** The form as the owner fills it in. */
export interface SsoDraft {
  issuer: string;
  clientId: string;
  /** A new secret; empty keeps the stored one. */
  clientSecret: string;
  /** Separated by spaces, as OpenID Connect writes them. */
  scopes: string;
  emailClaim: string;
  nameClaim: string;
  groupsClaim: string;
  label: string;
  required: boolean;
}

export type SsoField = keyof SsoDraft | 'claims';
export interface SsoProblem {
  field: SsoField | null;
  message: string;
}

export const emptySsoDraft: SsoDraft = {
  issuer: '',
  clientId: '',
  clientSecret: '',
  scopes: 'openid email profile',
  emailClaim: 'email',
  nameClaim: 'name',
  groupsClaim: '',
  label: '',
  required: false,
};

export function ssoDraftOf(settings: SsoSettings | null): SsoDraft {
  if (!settings) return emptySsoDraft;
  return {
    issuer: settings.issuer,
    clientId: settings.clientId,
    clientSecret: '',
    scopes: settings.scopes.join(' '),
    emailClaim: settings.claims.email,
    nameClaim: settings.claims.name,
    groupsClaim: settings.claims.groups ?? '',
    label: settings.label,
    required: settings.required,
  };
}

const scopesOf = (text: string) => text.split(/[\s,]+/).filter(Boolean);

/** What the owner can fix before the form is sent; the server checks the rest (discovery above all). */
export function ssoProblems(draft: SsoDraft): SsoProblem[] {
  const problems: SsoProblem[] = [];
  if (!/^https?:\/\/\S+$/i.test(draft.issuer.trim()))
    problems.push({ field: 'issuer', message: 'Enter the issuer URL, such as https://login.example.com.' });
  if (!draft.clientId.trim()) problems.push({ field: 'clientId', message: 'Please fill in the client ID.' });
  if (!scopesOf(draft.scopes).includes('openid'))
    problems.push({ field: 'scopes', message: 'The scopes must include openid.' });
  if (!draft.emailClaim.trim()) problems.push({ field: 'emailClaim', message: 'Enter the claim name.' });
  if (!draft.nameClaim.trim()) problems.push({ field: 'nameClaim', message: 'Enter the claim name.' });
  if (!draft.label.trim()) problems.push({ field: 'label', message: 'Enter the button label.' });
  return problems;
}

/** The change body of a valid form: an empty secret is left out, so the stored one is kept. */
export function ssoRequest(draft: SsoDraft): SsoRequest {
  const secret = draft.clientSecret.trim();
  return {
    issuer: draft.issuer.trim(),
    clientId: draft.clientId.trim(),
    ...(secret ? { clientSecret: secret } : {}),
    scopes: scopesOf(draft.scopes),
    claims: {
      email: draft.emailClaim.trim(),
      name: draft.nameClaim.trim(),
      groups: draft.groupsClaim.trim() || null,
    },
    label: draft.label.trim(),
    required: draft.required,
  };
}
