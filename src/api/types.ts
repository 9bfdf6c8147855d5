/**
 * The wire contract between the web app and the API server (DESIGN.md). The server imports these
 * types too; nothing else is shared between src/ and server/.
 */
import type { MessageStatus } from '../../machines/topic';

/** Every error answer: `error` is a sentence the UI can show as it is. */
export interface ApiError {
  error: string;
  code: string;
  /** The form field a 400 or 409 is about (`username`, `password`, `newPassword`…). */
  field?: string;
}

export interface PublicKeyResponse {
  key: string;
}

export interface OtpRequest {
  email: string;
}
export interface OtpResponse {
  sent: true;
}

export interface SignupRequest {
  email: string;
  password: string;
  displayName: string;
  username: string;
  otp: string;
}
export interface LoginRequest {
  email: string;
  password: string;
}
export interface AuthResponse {
  token: string;
}
export interface VerifyResponse {
  verified: 0 | 1;
}
export interface SuccessResponse {
  success: true;
}

export interface ResetPasswordRequest {
  email: string;
  otp: string;
  password: string;
}
export interface ChangePasswordRequest {
  password: string;
  newPassword: string;
}
export interface ProfileChangeRequest {
  displayName?: string;
  username?: string;
}
export interface DeleteAccountRequest {
  password: string;
}

export interface Organization {
  _id: string;
  subdomain: string;
  name: string;
}

export interface Category {
  _id: string;
  name: string;
}

export interface Bot {
  _id: string;
  name: string;
  description: string;
  active: boolean;
  categories: Category[];
  platform: { name: string };
  /** Price of one reply, in the organization's currency. */
  price: number;
}

export interface User {
  _id: string;
  username: string;
  displayName: string;
  email: string;
  organization: string;
  createdAt: string;
}

export interface Transaction {
  _id: string;
  amount: number;
  description: string;
  createdAt: string;
}

export interface BillingInfo {
  balance: number;
  currency: string;
  transactions: Transaction[];
}

export interface TranslateRequest {
  text: string;
  language: string;
}
export interface TranslateResponse {
  text: string;
  translated: boolean;
}

export type MessageRole = 'user' | 'bot';

export interface Message {
  _id: string;
  role: MessageRole;
  text: string;
  status: MessageStatus;
  /** What a complete bot reply was charged. */
  cost?: number;
  createdAt: string;
}

export interface TopicSummary {
  _id: string;
  title: string;
  bot: Pick<Bot, '_id' | 'name' | 'platform'>;
  lastMessage: string | null;
  updatedAt: string;
}

export interface Topic extends TopicSummary {
  messages: Message[];
}

export interface CreateTopicRequest {
  bot: string;
}
export interface RenameTopicRequest {
  title: string;
}
export interface SendMessageRequest {
  text: string;
}

/** Server-sent events of `POST /api/v1/topic/:id/message`, by event name. */
export interface StreamEvents {
  /** The user's message is stored. */
  message: { userMessageId: string };
  /** A piece of the reply. */
  token: { text: string };
  /** The reply is complete and stored; `cost` was charged to the balance. */
  done: { userMessageId: string; botMessageId: string; cost: number; balance: number };
  /** The reply failed; anything generated so far is stored, marked failed (or interrupted). */
  error: { error: string; code: string; botMessageId?: string };
}

export interface Notification {
  _id: string;
  title: string;
  body: string;
  read: boolean;
  createdAt: string;
}

/** `GET /api/v1/user/me/export`: everything Parley keeps about the user, saved as one JSON file. */
export interface AccountExport {
  exportedAt: string;
  account: User & { balance: number; currency: string };
  topics: {
    _id: string;
    title: string;
    bot: string;
    createdAt: string;
    updatedAt: string;
    messages: unknown[];
  }[];
  transactions: Transaction[];
  notifications: Notification[];
}
