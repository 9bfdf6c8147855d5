import type { SharedSnapshot } from '../../machines/sharedConversation';
import type { HttpClient } from './http';
import { HttpError } from './http';
import type {
  AccountExport,
  AuthResponse,
  Bot,
  ChangePasswordRequest,
  DeleteAccountRequest,
  LoginRequest,
  Organization,
  OtpResponse,
  ProfileChangeRequest,
  ResetPasswordRequest,
  SignupRequest,
  SuccessResponse,
  TranslateResponse,
  User,
  VerifyResponse,
} from './types';

/**
 * An answer that should carry a token and does not is an error (seed-spec §5): signup and login, and
 * likewise a password reset or change.
 */
function requireToken(response: AuthResponse): string {
  if (!response?.token) throw new HttpError(500, 'Internal Server Error', 'NO_TOKEN');
  return response.token;
}

/** The calls of seed-spec §7 and the account's self-service, each a typed function over the one HTTP client. */
export function createEndpoints(http: HttpClient) {
  return {
    publicKey: async () => (await http.get<{ key: string }>('/auth/public-key')).key,
    requestOtp: (email: string) => http.post<OtpResponse>('/auth/otp', { email }, { returnError: true }),
    signup: async (body: SignupRequest) =>
      requireToken(await http.post<AuthResponse>('/auth/signup', { ...body }, { returnError: true })),
    login: async (body: LoginRequest) =>
      requireToken(await http.post<AuthResponse>('/auth/login', { ...body }, { returnError: true })),
    /** The single-use code an SSO sign-in came back with, for the token a login gives. */
    exchangeSsoCode: async (code: string) =>
      requireToken(await http.post<AuthResponse>('/auth/oidc/exchange', { code }, { returnError: true })),
    verify: () => http.get<VerifyResponse>('/auth/verify'),
    /** Revokes this session's token on the server. */
    logout: () => http.post<SuccessResponse>('/auth/logout', undefined, { returnError: true }),
    /** Revokes every session of the user, this one included. */
    logoutEverywhere: () =>
      http.post<SuccessResponse>('/auth/logout-everywhere', undefined, { returnError: true }),
    /** Mails a reset code when the address has an account; the answer is the same either way. */
    forgotPassword: (email: string) =>
      http.post<OtpResponse>('/auth/password/forgot', { email }, { returnError: true }),
    resetPassword: async (body: ResetPasswordRequest) =>
      requireToken(await http.post<AuthResponse>('/auth/password/reset', { ...body }, { returnError: true })),
    changePassword: async (body: ChangePasswordRequest) =>
      requireToken(
        await http.post<AuthResponse>('/auth/password/change', { ...body }, { returnError: true }),
      ),
    organization: (subdomain: string) =>
      http.get<Organization>(`/api/v1/organization/${encodeURIComponent(subdomain)}`),
    bots: () => http.get<Bot[]>('/api/v1/bot'),
    /** A shared conversation's snapshot: public ones logged out too. */
    share: (id: string) => http.get<SharedSnapshot>(`/api/v1/share/${encodeURIComponent(id)}`),
    /** "Continue this conversation": a new conversation of the user with the snapshot's messages. */
    continueShare: (id: string) =>
      http.post<{ _id: string }>(
        `/api/v1/share/${encodeURIComponent(id)}/continue`,
        {},
        { returnError: true },
      ),
    me: () => http.get<User>('/api/v1/user/me'),
    updateMe: (changes: ProfileChangeRequest) => http.patch<User>('/api/v1/user/me', { ...changes }),
    deleteMe: (body: DeleteAccountRequest) =>
      http.delete<SuccessResponse>('/api/v1/user/me', undefined, { ...body }),
    exportMe: () => http.get<AccountExport>('/api/v1/user/me/export'),
    translate: (text: string, language: string) =>
      http.post<TranslateResponse>('/api/v1/translate', { text, language }, { returnError: true }),
  };
}

export type Endpoints = ReturnType<typeof createEndpoints>;
