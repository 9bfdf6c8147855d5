import { accountMachine } from '../../machines/account';
import { botsMachine } from '../../machines/bots';
import { conversationsMachine } from '../../machines/conversations';
import { languageMachine } from '../../machines/language';
import { organizationMachine } from '../../machines/organization';
import { resourceMachine } from '../../machines/resource';
import { sessionMachine } from '../../machines/session';
import { sidePanelMachine } from '../../machines/sidePanel';
import { themeMachine } from '../../machines/theme';
import { topicMachine } from '../../machines/topic';
import { translationMachine } from '../../machines/translation';
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
  { file: 'machines/conversations.ts', machine: conversationsMachine },
  { file: 'machines/theme.ts', machine: themeMachine },
  { file: 'machines/resource.ts', machine: resourceMachine },
];
