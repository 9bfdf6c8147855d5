/** The answer of every way in (signup, login, reset, SSO exchange): the session's token. */
export const tokenResponse = {
  type: 'object',
  additionalProperties: false,
  required: ['token'],
  properties: { token: { type: 'string' } },
} as const;
