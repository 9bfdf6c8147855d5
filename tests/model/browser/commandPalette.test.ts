import { commandPaletteBrowserModel } from './models/commandPalette';
import { runInBrowser } from './runner';

runInBrowser(commandPaletteBrowserModel);
