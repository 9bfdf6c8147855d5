import { accountModel } from './account';
import { adminListModel } from './adminList';
import { apiKeysModel } from './apiKeys';
import { attachmentModel } from './attachment';
import { attachmentsModel } from './attachments';
import { botEditorModel } from './botEditor';
import { botsModel } from './bots';
import { chatModelModel } from './chatModel';
import { citationsModel } from './citations';
import { commandPaletteModel } from './commandPalette';
import { conversationsModel } from './conversations';
import { feedbackModel } from './feedback';
import { importerModel } from './importer';
import { knowledgeBaseModel } from './knowledgeBase';
import { languageModel } from './language';
import { memberBotsModel } from './memberBots';
import { membersModel } from './members';
import { memoriesModel } from './memories';
import { organizationModel } from './organization';
import { orgSettingsModel } from './orgSettings';
import { personalizationModel } from './personalization';
import { projectsModel } from './projects';
import { promptsModel } from './prompts';
import { readAloudModel } from './readAloud';
import { resourceModel } from './resource';
import { savedMemoryModel } from './savedMemory';
import { sessionModel } from './session';
import { shareModel } from './share';
import { sharedConversationModel } from './sharedConversation';
import { sidePanelModel } from './sidePanel';
import { slashMenuModel } from './slashMenu';
import { ssoSettingsModel } from './ssoSettings';
import { themeModel } from './theme';
import { topicModel } from './topic';
import { translationModel } from './translation';
import { usageModel } from './usage';
import { voiceInputModel } from './voiceInput';
import { workerModel } from './worker';

/** The app's machines, as machines.test.ts walks them. */
export const models = [
  sessionModel,
  accountModel,
  apiKeysModel,
  organizationModel,
  sidePanelModel,
  botsModel,
  translationModel,
  languageModel,
  workerModel,
  topicModel,
  chatModelModel,
  projectsModel,
  memberBotsModel,
  attachmentsModel,
  attachmentModel,
  citationsModel,
  conversationsModel,
  themeModel,
  resourceModel,
  shareModel,
  sharedConversationModel,
  personalizationModel,
  memoriesModel,
  savedMemoryModel,
  feedbackModel,
  importerModel,
  commandPaletteModel,
  promptsModel,
  slashMenuModel,
  voiceInputModel,
  readAloudModel,
];

/** The admin area's machines, as adminMachines.test.ts walks them. */
export const adminModels = [
  adminListModel,
  botEditorModel,
  knowledgeBaseModel,
  membersModel,
  orgSettingsModel,
  ssoSettingsModel,
  usageModel,
];

// The event helpers, for models elsewhere (the browser's) that import them from here.
export { done, failed, failedOn, recording } from './shared';
