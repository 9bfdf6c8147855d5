import { accountMachine } from '../../machines/account';
import { adminListMachine } from '../../machines/adminList';
import { attachmentMachine } from '../../machines/attachment';
import { attachmentsMachine } from '../../machines/attachments';
import { botEditorMachine } from '../../machines/botEditor';
import { botsMachine } from '../../machines/bots';
import { citationsMachine } from '../../machines/citations';
import { conversationsMachine } from '../../machines/conversations';
import { knowledgeBaseMachine } from '../../machines/knowledgeBase';
import { languageMachine } from '../../machines/language';
import { membersMachine } from '../../machines/members';
import { organizationMachine } from '../../machines/organization';
import { orgSettingsMachine } from '../../machines/orgSettings';
import { resourceMachine } from '../../machines/resource';
import { sessionMachine } from '../../machines/session';
import { sidePanelMachine } from '../../machines/sidePanel';
import { themeMachine } from '../../machines/theme';
import { topicMachine } from '../../machines/topic';
import { translationMachine } from '../../machines/translation';
import { usageMachine } from '../../machines/usage';
import { workerMachine } from '../../machines/worker';

/** Every machine of the app, with the file a designer pastes into the Stately editor. */
export const machines = [
  { file: 'machines/session.ts', machine: sessionMachine },
  { file: 'machines/account.ts', machine: accountMachine },
  { file: 'machines/organization.ts', machine: organizationMachine },
  { file: 'machines/sidePanel.ts', machine: sidePanelMachine },
  { file: 'machines/bots.ts', machine: botsMachine },
  { file: 'machines/translation.ts', machine: translationMachine },
  { file: 'machines/language.ts', machine: languageMachine },
  { file: 'machines/worker.ts', machine: workerMachine },
  { file: 'machines/topic.ts', machine: topicMachine },
  { file: 'machines/attachments.ts', machine: attachmentsMachine },
  { file: 'machines/attachment.ts', machine: attachmentMachine },
  { file: 'machines/citations.ts', machine: citationsMachine },
  { file: 'machines/conversations.ts', machine: conversationsMachine },
  { file: 'machines/theme.ts', machine: themeMachine },
  { file: 'machines/resource.ts', machine: resourceMachine },
  { file: 'machines/adminList.ts', machine: adminListMachine },
  { file: 'machines/botEditor.ts', machine: botEditorMachine },
  { file: 'machines/knowledgeBase.ts', machine: knowledgeBaseMachine },
  { file: 'machines/members.ts', machine: membersMachine },
  { file: 'machines/orgSettings.ts', machine: orgSettingsMachine },
  { file: 'machines/usage.ts', machine: usageMachine },
];
