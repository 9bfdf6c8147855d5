import type { BrowserModel } from '../runner';
import { accountBrowserModel } from './account';
import { adminListBrowserModel } from './adminList';
import { botEditorBrowserModel } from './botEditor';
import { botsBrowserModel } from './bots';
import { languageBrowserModel } from './language';
import { membersBrowserModel } from './members';
import { organizationBrowserModel } from './organization';
import { orgSettingsBrowserModel } from './orgSettings';
import { sessionBrowserModel } from './session';
import { sidePanelBrowserModel } from './sidePanel';
import { themeBrowserModel } from './theme';
import { usageBrowserModel } from './usage';

/** The machines whose every state the browser walks, in the order the gallery shows them. */
export const browserModels: BrowserModel[] = [
  organizationBrowserModel,
  languageBrowserModel,
  sessionBrowserModel,
  accountBrowserModel,
  themeBrowserModel,
  botsBrowserModel,
  sidePanelBrowserModel,
  adminListBrowserModel,
  botEditorBrowserModel,
  membersBrowserModel,
  orgSettingsBrowserModel,
  usageBrowserModel,
];
