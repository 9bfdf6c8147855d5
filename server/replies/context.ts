import type { FastifyInstance } from 'fastify';
import { botFilesOf, knowledgeOf } from '../bots/config';
import { passageRoom, withAttachments } from '../files/prompt';
import { documentsCarried, retrieve } from '../knowledge/retrieval';
import { type Personal, personalization } from '../memories/recall';
import type { Owner } from '../owner';
import { projectContext } from '../projects/store';
import type { Attachment, Knowledge, Turn } from '../providers/types';
import { type BotTools, toolsForBot } from '../tools/registry';
import { librarianPassages } from './engines/librarian';

/** What a bot is given to answer: the conversation with its files, the passages found, its tools. */
export interface ReplyContext {
  history: Turn[];
  attachments: Attachment[];
  text: string;
  knowledge?: Knowledge;
  tools: BotTools;
  /**
   * System sections a model bot is given after its own prompt, in order: the project's instructions,
   * then the member's custom instructions and the memories that apply.
   */
  instructions: string[];
}

const impersonal: Personal = { sections: [], memoryOn: false, project: null };

/** The project's instructions as a model reads them after the bot's own prompt. */
const projectSection = (project: { name: string; instructions: string }) =>
  `This conversation belongs to the project "${project.name}". Its instructions:\n\n${project.instructions}`;

/**
 * The conversation as the bot is given it: with its files (when it carries any: the stored message
 * `messageId` and those before it), and with the passages that answer the question for a bot that
 * searches (the Librarian: the conversation's documents and its knowledge bases; a model bot: its
 * knowledge bases, and documents too long for its context, with half of that context kept for
 * passages), and the bot's tools. In a project's conversation (`project`, while the member may read
 * it), a model bot is given the project's instructions, and the project's files and the knowledge
 * bases of it the member may use are searched like the bot's own; a member's bot searches the files
 * its maker gave it the same way. In the member's own conversation in
 * the app (`personal`), a model bot is also given their custom instructions and memories, and
 * `remember` while memory is on; never through the API (the caller writes the whole prompt) nor in
 * the admin's "Try it". A chat reply, an API call and the admin's "Try it" alike: the place where what
 * else a bot is given (projects, memory) joins.
 */
export async function replyContext(
  app: FastifyInstance,
  who: Owner,
  bot: { platform: string; config: Record<string, unknown> },
  conversation: {
    history: Turn[];
    text: string;
    messageId?: string;
    /** The topic's project, when it is in one. */
    project?: string | null;
    /** The member's own conversation in the app. */
    personal?: boolean;
    /** The member asked this message to search the web (a model bot without `web_search` of its own). */
    webSearch?: boolean;
  },
  carriesFiles = false,
): Promise<ReplyContext> {
  const model = bot.platform === 'openai';
  // The project's part and the member's: one query each, at once.
  const [project, personal] = await Promise.all([
    conversation.project ? projectContext(app.db, who, conversation.project) : null,
    model && conversation.personal
      ? personalization(app, who, { text: conversation.text, project: conversation.project ?? null })
      : impersonal,
  ]);
  const bases = [...new Set([...knowledgeOf(bot.config), ...(project?.bases ?? [])])];
  const instructions = [
    ...(model && project?.instructions ? [projectSection(project)] : []),
    ...personal.sections,
  ];
  // The project's files, and a member's bot's own, are searched for every message (those of text:
  // an image has none).
  const botFiles = model ? botFilesOf(bot.config) : [];
  const searchesFiles = Boolean(project?.files) || botFiles.length > 0;
  const searched = {
    ...(project?.files ? { project: conversation.project as string } : {}),
    ...(botFiles.length ? { botFiles } : {}),
  };
  const librarian = bot.platform === 'builtin' && bot.config.engine === 'librarian';
  const room = passageRoom(bot.config);
  const { messageId } = conversation;
  const files = carriesFiles && messageId !== undefined;
  let context: { history: Turn[]; attachments: Attachment[]; unfit: string[] } = {
    history: conversation.history,
    attachments: [],
    unfit: [],
  };
  if (files) {
    // The instructions take room in the context too.
    const told = instructions.reduce((sum, section) => sum + section.length, 0);
    const read = (reserve: number) =>
      withAttachments(app.db, who, { ...conversation, messageId }, bot.config, reserve + told);
    context = await read(model && (bases.length || searchesFiles) ? room : 0);
    if (model && !bases.length && !searchesFiles && context.unfit.length) context = await read(room);
  }
  let knowledge: Knowledge | undefined;
  if (librarian) {
    const ids = [
      ...conversation.history.flatMap((turn) => (turn.id ? [turn.id] : [])),
      ...(messageId ? [messageId] : []),
    ];
    const documents = files ? await documentsCarried(app, who, ids) : [];
    knowledge = await retrieve(app, who, {
      question: conversation.text,
      bases,
      documents,
      ...searched,
      limit: librarianPassages,
    });
  } else if (model && (bases.length || context.unfit.length || searchesFiles)) {
    knowledge = await retrieve(app, who, {
      question: conversation.text,
      bases,
      documents: context.unfit,
      ...searched,
      limit: 5,
      room,
    });
  }
  return {
    history: context.history,
    attachments: context.attachments,
    text: conversation.text,
    knowledge,
    tools: await toolsForBot(app, who, bot, personal.memoryOn ? { project: personal.project } : null, {
      asked: conversation.webSearch === true,
      // The pages found are cited after the passages.
      firstCitation: Math.max(0, ...(knowledge?.passages.map((passage) => passage.n) ?? [])) + 1,
    }),
    instructions,
  };
}
