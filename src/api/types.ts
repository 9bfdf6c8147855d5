/**
 * The wire contract between the web app and the API server (DESIGN.md). The records the screens show
 * belong to the machines that hold them; the calls answer those records, so their types are named here.
 */
import type { BotCategory, BotRecord } from '../../machines/bots';
import type { ConversationSummary } from '../../machines/conversations';
import type { ChatMessage, Citation, ToolStep } from '../../machines/messageTree';
import type { OrganizationRecord } from '../../machines/organization';
import type { BillingRecord, NotificationRecord, TransactionRecord } from '../../machines/resource';

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

export type Organization = OrganizationRecord;

export type Category = BotCategory;
export type Bot = BotRecord;

export interface User {
  _id: string;
  username: string;
  displayName: string;
  email: string;
  organization: string;
  createdAt: string;
}

export type Transaction = TransactionRecord;
export type BillingInfo = BillingRecord;

export interface TranslateRequest {
  text: string;
  language: string;
}
export interface TranslateResponse {
  text: string;
  translated: boolean;
}

export interface Message extends ChatMessage {
  parent: string | null;
  createdAt: string;
  /** The bot that wrote a reply. */
  bot?: string;
  /** The catalogue model that wrote a reply (a bot with catalogue models). */
  model?: string;
  /** What a complete bot reply was charged. */
  cost?: number;
  /** The files a user's message carried. */
  files?: MessageFile[];
}

/** `POST /api/v1/file` (multipart, field `file`) and `GET /api/v1/file/:id`: a file of the user's. */
export interface FileRecord {
  _id: string;
  name: string;
  /** Sniffed from the bytes: image/png|jpeg|webp|gif, application/pdf, DOCX, text/plain, application/json. */
  type: string;
  size: number;
  /** A PDF's pages. */
  pages?: number;
  status: 'ready';
  createdAt: string;
}

/** A file a message carried, as it was sent; `removed` once its owner deleted it. */
export interface MessageFile {
  _id: string;
  name: string;
  type: string;
  size: number;
  removed?: true;
}

/** One conversation in `GET /api/v1/topic`: `lastMessage` is the preview's older name, kept for old clients. */
export interface TopicSummary extends ConversationSummary {
  bot: Pick<Bot, '_id' | 'name' | 'platform'>;
  lastMessage: string | null;
}

/** `GET /api/v1/topic` with `cursor` or `q`: a page, and the cursor of the next one (null at the end). */
export interface TopicPage {
  items: TopicSummary[];
  next: string | null;
}

/** A conversation's temperature and maximum reply length (where its bot has `userParameters`). */
export interface TopicParameters {
  temperature?: number;
  maxTokens?: number;
}

export interface Topic extends TopicSummary {
  /** The newest message of the branch on screen. */
  head: string | null;
  /** The catalogue model its replies are written by (its choice, else the bot's default); null: none. */
  model: string | null;
  parameters: TopicParameters;
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
  /** Ids of the user's files (at most 10). */
  files?: string[];
}

/** `POST /api/v1/topic/:id/tool-call/:callId`: the user's Allow (`approve: true`) or Deny of an "ask first" call. */
export interface ToolCallDecisionRequest {
  approve: boolean;
}
/** The step with its new status. */
export interface ToolCallDecisionResponse {
  step: ToolStep;
}

/** Server-sent events of `POST /api/v1/topic/:id/message`, by event name. */
export interface StreamEvents {
  /** The user's message is stored, and the reply's message waits for its text. */
  message: { userMessageId: string; botMessageId: string };
  /** A piece of the reply. */
  token: { text: string };
  /** A tool call of the reply: announced (`running` or `awaiting_approval`), then again when it ends. */
  step: { botMessageId: string; step: ToolStep };
  /**
   * The reply is complete and stored; `cost` was charged to the balance; `citations`: the passages it cites;
   * `steps`: the tools it called, when it called any; `title`: see below.
   */
  done: {
    userMessageId?: string;
    botMessageId: string;
    cost: number;
    balance: number;
    citations?: Citation[];
    steps?: ToolStep[];
    /** The conversation's new title, when the bot's model just wrote it (after its first reply). */
    title?: string;
  };
  /** The reply failed; anything generated so far is stored, marked failed (or interrupted). */
  error: { error: string; code: string; botMessageId?: string };
}

export type Notification = NotificationRecord;

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
  /** The user's files; `?format=zip` downloads this JSON with their bytes. */
  files: FileRecord[];
}
