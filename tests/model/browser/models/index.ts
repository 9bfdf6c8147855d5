import type { BrowserModel } from '../runner';
import { botsBrowserModel } from './bots';
import { languageBrowserModel } from './language';
import { organizationBrowserModel } from './organization';
import { sessionBrowserModel } from './session';
import { sidePanelBrowserModel } from './sidePanel';
import { themeBrowserModel } from './theme';

/** The machines whose every state the browser walks, in the order the gallery shows them. */
export const browserModels: BrowserModel[] = [
  organizationBrowserModel,
  languageBrowserModel,
  sessionBrowserModel,
  themeBrowserModel,
  botsBrowserModel,
  sidePanelBrowserModel,
];
