import type { OpenAiDouble } from '../../../support/openai-double';
import type { BrowserModel } from '../runner';
import { accountBrowserModel } from './account';
import { adminListBrowserModel } from './adminList';
import { apiKeysBrowserModel } from './apiKeys';
import { attachmentsBrowserModel } from './attachments';
import { botEditorBrowserModel } from './botEditor';
import { botsBrowserModel } from './bots';
import { chatModelBrowserModel } from './chatModel';
import { citationsBrowserModel } from './citations';
import { commandPaletteBrowserModel } from './commandPalette';
import { conversationsBrowserModel } from './conversations';
import { feedbackBrowserModel } from './feedback';
import { importerBrowserModel } from './importer';
import { knowledgeBaseBrowserModel } from './knowledgeBase';
import { languageBrowserModel } from './language';
import { memberBotsBrowserModel } from './memberBots';
import { membersBrowserModel } from './members';
import { memoriesBrowserModel } from './memories';
import { organizationBrowserModel } from './organization';
import { orgSettingsBrowserModel } from './orgSettings';
import { personalizationBrowserModel } from './personalization';
import { projectsBrowserModel } from './projects';
import { promptsBrowserModel } from './prompts';
import { savedMemoryBrowserModel } from './savedMemory';
import { sessionBrowserModel } from './session';
import { shareBrowserModel } from './share';
import { sharedConversationBrowserModel } from './sharedConversation';
import { sidePanelBrowserModel } from './sidePanel';
import { slashMenuBrowserModel } from './slashMenu';
import { ssoSettingsBrowserModel } from './ssoSettings';
import { themeBrowserModel } from './theme';
import { topicBrowserModel } from './topic';
import { usageBrowserModel } from './usage';
import { readAloudBrowserModel, voiceInputBrowserModel } from './voice';

// Only the paths of these models are read here (the gallery, the docs test): no model double runs,
// so the two models that script one get a stand-in that is never asked for a reply.
const noDouble = { script: () => {} } as unknown as OpenAiDouble;
const noServer = new Promise<never>(() => {});

/** The machines whose every state the browser walks, in the order the gallery shows them. */
export const browserModels: BrowserModel[] = [
  organizationBrowserModel,
  languageBrowserModel,
  sessionBrowserModel,
  accountBrowserModel,
  apiKeysBrowserModel,
  personalizationBrowserModel,
  memoriesBrowserModel,
  importerBrowserModel,
  promptsBrowserModel,
  themeBrowserModel,
  botsBrowserModel,
  sidePanelBrowserModel,
  conversationsBrowserModel({ double: noDouble }),
  topicBrowserModel({ double: noDouble, broke: noServer }),
  chatModelBrowserModel,
  attachmentsBrowserModel,
  slashMenuBrowserModel,
  citationsBrowserModel,
  feedbackBrowserModel,
  savedMemoryBrowserModel({ double: noDouble }),
  voiceInputBrowserModel({ double: noDouble }),
  readAloudBrowserModel({ double: noDouble }),
  shareBrowserModel,
  commandPaletteBrowserModel,
  projectsBrowserModel,
  memberBotsBrowserModel,
  sharedConversationBrowserModel,
  adminListBrowserModel,
  botEditorBrowserModel,
  knowledgeBaseBrowserModel,
  membersBrowserModel,
  orgSettingsBrowserModel,
  ssoSettingsBrowserModel,
  usageBrowserModel,
];
