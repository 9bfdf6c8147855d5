import type { BrowserModel } from '../runner';
import { sidePanelBrowserModel } from './sidePanel';

/** The machines whose every state the browser walks, in the order the gallery shows them. */
export const browserModels: BrowserModel[] = [sidePanelBrowserModel];
