import { machineDiagrams } from '../../../scripts/diagrams/render';
import {
  type BrowserModel,
  colourSchemes,
  desktop,
  type GalleryState,
  galleryFile,
  galleryStates,
  phone,
  type Viewport,
} from './runner';

const shots = [desktop, phone].flatMap((viewport) => colourSchemes.map((scheme) => ({ viewport, scheme })));
const shotLabel = ({ viewport, scheme }: (typeof shots)[number]) => `${viewport.width} px, ${scheme}`;

/**
 * What the index knows of the files `npm run gallery` took: the first file with the same pixels as this
 * one (itself when it is the first), or nothing when the shot is missing.
 */
export type FirstOfItsKind = (file: string) => string | undefined;

const statePath = (state: GalleryState) => state.node.path.join('.');
const pathText = (events: string[]) => (events.length ? events.join(' → ') : '(start)');

function shotCell(
  model: BrowserModel,
  state: GalleryState,
  shot: { viewport: Viewport; scheme: (typeof colourSchemes)[number] },
  firstOf: FirstOfItsKind,
  shownAs: Map<string, string>,
) {
  const file = galleryFile(model.name, state.pathIndex, shot.viewport, shot.scheme);
  const first = firstOf(file);
  if (!first) return 'missing';
  const earlier = shownAs.get(first);
  if (earlier) return `as \`${earlier}\``;
  shownAs.set(first, statePath(state));
  const width = shot.viewport === desktop ? 240 : 90;
  return `<a href="${first}"><img src="${first}" width="${width}" alt="${model.name} in ${statePath(state)}, ${shotLabel(shot)}"></a>`;
}

function machineSection(model: BrowserModel, firstOf: FirstOfItsKind): string {
  const states = galleryStates(model, desktop);
  const onPhone = new Map(galleryStates(model, phone).map((state) => [state.id, state]));
  const regions = [...new Set(states.map((state) => state.region))];
  const shownAs = new Map<string, string>();
  const tables = regions.flatMap((region) => {
    const rows = states
      .filter((state) => state.region === region)
      .map((state) => {
        const phoneState = onPhone.get(state.id) ?? state;
        const cells = shots.map((shot) =>
          shotCell(model, shot.viewport === phone ? phoneState : state, shot, firstOf, shownAs),
        );
        const phonePath = pathText(phoneState.events);
        const path =
          phonePath === pathText(state.events)
            ? phonePath
            : `${pathText(state.events)}; at ${phone.width} px: ${phonePath}`;
        return `| \`${statePath(state)}\` | ${state.node.description ?? ''} | ${path} | ${cells.join(' | ')} |`;
      });
    return [
      ...(region === model.machine.root ? [] : [`### Region \`${region.path.join('.')}\``]),
      [
        `| State | What it means | Path | ${shots.map(shotLabel).join(' | ')} |`,
        `|${' --- |'.repeat(3 + shots.length)}`,
        ...rows,
      ].join('\n'),
    ];
  });
  return [
    `## ${model.name}`,
    model.machine.root.description ?? '',
    ...machineDiagrams(model.machine).map((diagram) => `\`\`\`mermaid\n${diagram.source}\n\`\`\``),
    ...tables,
    '',
  ].join('\n\n');
}

/**
 * docs/gallery/index.md: each UI-facing machine's diagram, then each of its states (by region) with its
 * description, the path of events that reaches it, and its screenshots; identical shots are shown once.
 */
export function renderGalleryIndex(models: BrowserModel[], firstOf: FirstOfItsKind): string {
  return [
    '# Parley state gallery',
    '',
    'Made by `npm run gallery` from the paths the browser model tests walk (`npm run test:model:browser`):',
    'each state of each machine the app shows, reached through the UI in Chromium at 1280 px and at 375 px (each',
    'width walked in its own browser from the start), light and dark. Times the server stamped are masked.',
    '',
    ...models.map((model) => machineSection(model, firstOf)),
  ].join('\n');
}
