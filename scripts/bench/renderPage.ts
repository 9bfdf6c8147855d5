import { measureRenderCost } from './renderCost';

// Bundled for Chromium by the render benchmark: the same measurement, in a real browser.
Object.assign(window, { measureRenderCost });
