import type { AnyStateMachine, AnyStateNode } from 'xstate';
import { machines } from './machines';

/**
 * Mermaid `stateDiagram-v2` drawn from the machine definitions, for docs/machines.md.
 *
 * What Mermaid needs, and what keeps a big machine legible at page width:
 * - Text is escaped as Mermaid entity codes (`;` would end the statement, `:` starts a description).
 * - A composite state takes no description (Mermaid: "Group nodes can only have label"): its sentence is a
 *   note-coloured box inside it.
 * - A transition written on a composite state and staying inside it (a machine-wide event, or one of a
 *   region) starts from a dashed "any state" box inside it, not from the box's own edge.
 * - A parallel machine gets one diagram per region, so regions stack instead of standing side by side.
 * - One arrow per source and target: its label has one line per guard and actions, with the events that
 *   share them joined (no pile of arrows with the same action list).
 * - Guards and actions with literal parameters show them: `[isView: bot]`, `clearProblem(profile)`.
 * - No diagram wider than a 1,280 px page (tests/model/diagrams.test.ts measures them): ELK lays them out; a
 *   big composite or parallel state (or a region of a nested parallel one with a few states) gets its own
 *   diagram; transitions that stay put are lines in their box;
 *   arrows from outside come from one `elsewhere` box; a state many lead to keeps a few arrows and the rest
 *   end in `→ state` boxes; a fan of arrows from a row of sources is drawn left to right.
 */

/** The Mermaid id of a state: its path from the machine, so custom `id`s and dots do not matter. */
export const stateId = (node: AnyStateNode): string =>
  [node.machine.id, ...node.path].join('_').replace(/[^A-Za-z0-9_]/g, '_');
const anyId = (node: AnyStateNode) => `${stateId(node)}__any`;
const aboutId = (node: AnyStateNode) => `${stateId(node)}__about`;

const entities: Record<string, string> = {
  '#': '#35;',
  ';': '#59;',
  ':': '#58;',
  '"': '#quot;',
  '{': '#123;',
  '}': '#125;',
  '<': '#lt;',
  '>': '#gt;',
  '&': '#amp;',
  '%': '#37;',
};
/** Text as Mermaid reads it literally: the characters its grammar uses written as entity codes. */
export const escapeText = (text: string): string => text.replace(/[#;:"{}<>&%]/g, (char) => entities[char]);

/** Escaped text broken into lines of about `width` characters, so a sentence does not widen its box. */
function wrap(text: string, width = 26): string {
  const lines: string[] = [];
  for (const word of text.trim().split(/\s+/)) {
    const last = lines.length - 1;
    if (last >= 0 && lines[last].length + word.length + 1 <= width) lines[last] += ` ${word}`;
    else lines.push(word);
  }
  return lines.map(escapeText).join('<br/>');
}

/** A literal parameter as it reads on an edge; a long one (a message, say) is only hinted at. */
function formatValue(value: unknown): string {
  const text = typeof value === 'string' ? value : JSON.stringify(value);
  return text.length > 24 || /\s/.test(text) ? '…' : text;
}

/** Literal parameters as `bot` (one) or `view=bot, n=2` (several); parameters computed from the event are not shown. */
function formatParams(params: unknown): string {
  if (params === undefined || typeof params === 'function') return '';
  if (typeof params !== 'object' || params === null) return formatValue(params);
  const entries = Object.entries(params);
  if (entries.length === 1) return formatValue(entries[0][1]);
  return entries.map(([key, value]) => `${key}=${formatValue(value)}`).join(', ');
}

const nameOf = (item: unknown): string =>
  typeof item === 'string' ? item : ((item as { type?: string } | null)?.type ?? 'inline');
const paramsOf = (item: unknown) =>
  typeof item === 'object' && item !== null ? formatParams((item as { params?: unknown }).params) : '';

function guardLabel(guard: unknown): string {
  const params = paramsOf(guard);
  return params ? `${nameOf(guard)}: ${params}` : nameOf(guard);
}

function actionLabel(action: unknown): string {
  const params = paramsOf(action);
  return params ? `${nameOf(action)}(${params})` : nameOf(action);
}

/** `xstate.done.actor.verifyToken` reads as `done: verifyToken` on an edge. */
function eventLabel(eventType: string): string {
  if (!eventType) return 'always';
  const done = /^xstate\.done\.actor\.(.+)$/.exec(eventType);
  if (done) return `done: ${done[1]}`;
  const error = /^xstate\.error\.actor\.(.+)$/.exec(eventType);
  if (error) return `error: ${error[1]}`;
  const after = /^xstate\.after\.([^.]+)\./.exec(eventType);
  if (after) return /^\d+$/.test(after[1]) ? `after ${after[1]} ms` : `after ${after[1]}`;
  return eventType;
}

interface Definition {
  eventType: string;
  target?: readonly AnyStateNode[];
  guard?: unknown;
  actions: readonly unknown[];
}

const definitionsOf = (node: AnyStateNode): Definition[] => [
  ...[...node.transitions.values()].flat(),
  ...(node.always ?? []),
];
const childrenOf = (node: AnyStateNode) => Object.values(node.states) as AnyStateNode[];
const isComposite = (node: AnyStateNode) => childrenOf(node).length > 0;
const allNodes = (node: AnyStateNode): AnyStateNode[] => [node, ...childrenOf(node).flatMap(allNodes)];
const isWithin = (node: AnyStateNode, ancestor: AnyStateNode) => {
  for (let current: AnyStateNode | undefined = node; current; current = current.parent)
    if (current === ancestor) return true;
  return false;
};

/** One diagram: a frame (the machine, a region of a parallel machine, a big composite state) drawn at top level. */
export interface Diagram {
  /** `topic` for a machine, `session.auth` for a region of a parallel machine, `topic.live` for a big state. */
  name: string;
  /** The state the diagram draws the inside of. */
  frame: AnyStateNode;
  /** The Mermaid source, without the Markdown fence. */
  source: string;
  /** The Mermaid ids of every box the diagram draws: states, "any state" boxes, notes, states outside. */
  boxes: string[];
}

interface Edge {
  from: string;
  to: string;
  /** `guard and actions` → the events that share them, in the order they were written. */
  lines: Map<string, string[]>;
}

/**
 * A composite state with this many states inside is drawn as one box, and its inside in a diagram of its own.
 * A parallel one is drawn there as a box around its regions (Mermaid draws regions, `--`, only inside a state).
 */
const ownDiagramFrom = 7;
/**
 * A region of a nested parallel state with this many states inside is drawn on its own too: the regions stand
 * side by side in their state's box, so their widths add up across the page.
 */
const regionOwnDiagramFrom = 4;
/** Arrows from this many boxes into one state are too many to cross the diagram: all but the first few jump. */
const hubFrom = 4;
const hubKeeps = 3;
/** A diagram of this many arrows, all from boxes none leads into, is drawn left to right. */
const fanFrom = 5;
const isFrameOfMachine = (node: AnyStateNode) =>
  !node.parent || (node.parent.type === 'parallel' && !node.parent.parent);
const hasOwnDiagram = (node: AnyStateNode) =>
  isComposite(node) &&
  !isFrameOfMachine(node) &&
  allNodes(node).length - 1 >= (node.parent?.type === 'parallel' ? regionOwnDiagramFrom : ownDiagramFrom);
/** A frame drawn as one box around its regions, rather than its states drawn at the top of the diagram. */
const drawsAsBox = (frame: AnyStateNode) => frame.type === 'parallel' && !isFrameOfMachine(frame);

const labelOf = (definition: Definition) => {
  const guard = definition.guard ? ` [${guardLabel(definition.guard)}]` : '';
  const actions = definition.actions.length ? ` / ${definition.actions.map(actionLabel).join(', ')}` : '';
  return `${guard}${actions}`;
};

/**
 * The diagram of `frame`: its states, and every transition written on it or inside it. `inbound` are
 * transitions written outside the frame that lead into it: a parallel machine's own (drawn from the
 * region's "any state" box), or those into a big state drawn on its own (drawn from a box for their source).
 */
function frameDiagram(frame: AnyStateNode, inbound: [AnyStateNode, Definition][]): Diagram {
  const edges = new Map<string, Edge>();
  const needsAny = new Set<AnyStateNode>();
  const outside = new Map<string, string>();
  const collapsed = allNodes(frame).filter((node) => node !== frame && hasOwnDiagram(node));
  /** The box a state is drawn in: itself, or the outermost big state around it that has its own diagram. */
  const shown = (node: AnyStateNode) => collapsed.find((big) => isWithin(node, big)) ?? node;
  const outsideBox = (node: AnyStateNode) => {
    const id = `${stateId(node)}__outside`;
    const name = node.path.join('.') || node.machine.id;
    outside.set(id, isWithin(frame, node) ? `any state of ${name}` : name);
    return id;
  };

  const elsewhereId = `${stateId(frame)}__elsewhere__outside`;
  const draw = (source: AnyStateNode, definition: Definition) => {
    const fromOutside = !isWithin(source, frame);
    // Drawn from outside, a transition shows only where it leads inside the frame.
    const targets = (definition.target ?? []).filter((target) => !fromOutside || isWithin(target, frame));
    const box = fromOutside ? source : shown(source);
    // Inside a big state drawn on its own: its diagram draws what stays in it.
    if (box !== source && targets.every((target) => isWithin(target, box))) return;
    if (collapsed.includes(source) && targets.every((target) => isWithin(target, source))) return;
    const staysInside = targets.every((target) => isWithin(target, source));
    // A parallel machine's own transitions start, in each region, from the region's "any state" box.
    const useAny =
      (fromOutside && isFrameOfMachine(frame) && source === frame.parent) ||
      source === frame ||
      (!fromOutside && isComposite(source) && box === source && staysInside);
    const anyOf = fromOutside ? frame : source;
    if (useAny) needsAny.add(anyOf);
    // Arrows from states outside (not from around the frame) come from one box, their sources named on their
    // lines: a row of boxes across the top, with a label under each, is too wide.
    const fromElsewhere = fromOutside && !useAny && !isWithin(frame, source);
    if (fromElsewhere) outside.set(elsewhereId, 'elsewhere');
    const from = useAny
      ? anyId(anyOf)
      : fromElsewhere
        ? elsewhereId
        : fromOutside
          ? outsideBox(source)
          : stateId(box);
    const where = fromElsewhere
      ? ` (from ${source.path.join('.')})`
      : box !== source
        ? ` (in ${source.key})`
        : '';
    for (const target of targets.length ? targets : [source]) {
      let to: string;
      let into = '';
      if (target === source && (useAny || box !== source)) to = from;
      else if (target === frame && drawsAsBox(frame)) to = stateId(frame);
      else if (target === frame) {
        needsAny.add(frame);
        to = anyId(frame);
      } else if (!isWithin(target, frame)) to = outsideBox(target);
      else {
        const targetBox = shown(target);
        to = stateId(targetBox);
        if (targetBox !== target) into = ` → ${target.key}`;
      }
      const key = `${from} ${to}`;
      const edge = edges.get(key) ?? { from, to, lines: new Map() };
      edges.set(key, edge);
      const rest = `${labelOf(definition)}${where}${into}`;
      edge.lines.set(rest, [...(edge.lines.get(rest) ?? []), eventLabel(definition.eventType)]);
    }
  };
  for (const [source, definition] of inbound) draw(source, definition);
  for (const node of allNodes(frame)) for (const definition of definitionsOf(node)) draw(node, definition);

  const boxes: string[] = [];
  const lines: string[] = [];
  // A transition that stays where it is reads as a line inside its box (as UML writes internal transitions):
  // a loop beside the box would widen the diagram, and its label lands on its neighbours.
  const staying = (id: string) =>
    [...(edges.get(`${id} ${id}`)?.lines ?? [])].map(([rest, events]) =>
      wrap(`↻ ${events.join(', ')}${rest}`),
    );
  const labelOfBox = new Map<string, string>();
  const declare = (indent: string, label: string, id: string, suffix = '') => {
    boxes.push(id);
    labelOfBox.set(id, label);
    lines.push(`${indent}state "${label}" as ${id}${suffix}`);
  };
  const describe = (indent: string, id: string, sentence: string | undefined) => {
    for (const line of [...(sentence ? [wrap(sentence)] : []), ...staying(id)])
      lines.push(`${indent}${id} : ${line}`);
  };
  const drawInside = (node: AnyStateNode, indent: string) => {
    const start = lines.length;
    if (node !== frame && node.description) declare(indent, escapeText(node.description), aboutId(node));
    if (needsAny.has(node)) {
      declare(indent, 'any state', anyId(node));
      describe(indent, anyId(node), undefined);
    }
    if (node.type === 'parallel') {
      // Regions of a nested parallel state are drawn side by side inside it; its note and "any state" box
      // stand in a region of their own.
      for (const region of childrenOf(node)) {
        if (lines.length > start) lines.push(`${indent}--`);
        drawState(region, indent);
      }
      return;
    }
    if (node.initial?.target?.length)
      lines.push(`${indent}[*] --> ${stateId(shown(node.initial.target[0]))}`);
    for (const child of childrenOf(node)) drawState(child, indent);
  };
  const drawState = (node: AnyStateNode, indent: string) => {
    const name = escapeText(node.type === 'history' ? `${node.key} (history)` : node.key);
    if (isComposite(node) && !collapsed.includes(node)) {
      declare(indent, name, stateId(node), ' {');
      drawInside(node, `${indent}  `);
      lines.push(`${indent}}`);
      return;
    }
    declare(indent, collapsed.includes(node) ? `${name} (below)` : name, stateId(node));
    describe(indent, stateId(node), node.description);
  };

  if (isComposite(frame) && !drawsAsBox(frame)) drawInside(frame, '  ');
  else drawState(frame, '  ');
  for (const [id, label] of outside) declare('  ', escapeText(label), id);
  // A state many others lead to keeps the arrows of the first few; the others end in a small box of their
  // own naming it, beside their source, instead of all crossing the diagram to it.
  const sourcesOf = new Map<string, string[]>();
  for (const { from, to } of edges.values())
    if (from !== to) sourcesOf.set(to, [...(sourcesOf.get(to) ?? []), from]);
  for (const edge of edges.values()) {
    const sources = sourcesOf.get(edge.to) ?? [];
    const index = sources.indexOf(edge.from);
    if (edge.from === edge.to || sources.length < hubFrom || index < hubKeeps) continue;
    const jump = `${edge.to}__${index}__jump`;
    declare('  ', `→ ${labelOfBox.get(edge.to)?.replace(/ \(below\)$/, '') ?? edge.to}`, jump);
    edge.to = jump;
  }
  for (const { from, to, lines: labels } of edges.values()) {
    if (from === to) continue;
    const label = [...labels]
      .map(([rest, events]) => escapeText(`${events.join(', ')}${rest}`))
      .join('<br/>');
    lines.push(`  ${from} --> ${to} : ${label}`);
  }
  for (const [suffix, style] of [
    ['__any', 'anyState'],
    ['__about', 'about'],
    ['__outside', 'outside'],
    ['__jump', 'outside'],
  ]) {
    const ids = boxes.filter((id) => id.endsWith(suffix));
    if (ids.length) lines.push(`  class ${ids.join(', ')} ${style}`);
  }

  // A fan (no box both receives and sends an arrow: one row of targets) stands taller than wide left to right.
  const arrows = [...edges.values()].filter(({ from, to }) => from !== to);
  const isFan = arrows.length >= fanFrom && arrows.every(({ to }) => !arrows.some(({ from }) => from === to));
  const source = [
    // ELK routes edges around boxes and keeps labels apart, where Mermaid's default (dagre) lets them pile up;
    // a viewer without ELK falls back to dagre.
    '---',
    'config:',
    '  layout: elk',
    '  elk:',
    '    nodePlacementStrategy: SIMPLE',
    '---',
    'stateDiagram-v2',
    ...(isFan ? ['  direction LR'] : []),
    '  classDef anyState fill:none,stroke-dasharray:4 4,font-style:italic',
    '  classDef about fill:#fff5ad,stroke:#aaaa33,color:#333333',
    '  classDef outside fill:none,stroke:#999999,stroke-dasharray:2 2,color:#666666',
    ...lines,
  ].join('\n');
  const name = [frame.machine.id, ...frame.path].join('.');
  return { name, frame, source, boxes };
}

/**
 * A machine's diagrams: the machine (or one per region when it is parallel), then one per big state,
 * in the order of the definition.
 */
export function machineDiagrams(machine: AnyStateMachine): Diagram[] {
  const root = machine.root;
  const everything = allNodes(root);
  const inboundOf = (frame: AnyStateNode): [AnyStateNode, Definition][] =>
    everything
      .filter((source) => !isWithin(source, frame))
      .flatMap((source) =>
        definitionsOf(source)
          .filter((definition) => definition.target?.some((target) => isWithin(target, frame)))
          .map((definition): [AnyStateNode, Definition] => [source, definition]),
      );
  const frames = [
    ...(root.type === 'parallel' ? childrenOf(root) : [root]),
    ...everything.filter(hasOwnDiagram),
  ];
  return frames.map((frame) => frameDiagram(frame, frame === root ? [] : inboundOf(frame)));
}

/** Transitions of a parallel machine that stay where they are: no region draws them, so the text lists them. */
function machineWide(machine: AnyStateMachine): string[] {
  if (machine.root.type !== 'parallel') return [];
  return definitionsOf(machine.root)
    .filter((definition) => !definition.target?.length)
    .map((definition) => `\`${eventLabel(definition.eventType)}${labelOf(definition)}\``);
}

const fence = (diagram: Diagram) => `\`\`\`mermaid\n${diagram.source}\n\`\`\``;

function machineSection(file: string, machine: AnyStateMachine): string {
  const root = machine.root;
  const parts = [
    `## ${machine.id}`,
    root.description ?? '',
    `Source: [\`${file}\`](../${file}) — paste it into the Stately editor to explore it.`,
  ];
  const diagrams = machineDiagrams(machine);
  if (root.type === 'parallel') {
    const regions = childrenOf(root).length;
    parts.push(
      `Its ${regions} regions run at the same time; each has its own diagram, and an event of the whole machine is drawn in the regions it moves.`,
    );
    const wide = machineWide(machine);
    if (wide.length) parts.push(`In any state, without moving: ${wide.join('; ')}.`);
  }
  for (const diagram of diagrams) {
    if (diagram.frame !== root) {
      parts.push(`### ${diagram.name}`);
      if (diagram.frame.description) parts.push(diagram.frame.description);
    }
    parts.push(fence(diagram));
  }
  return `${parts.join('\n\n')}\n`;
}

/** The whole of docs/machines.md. */
export function renderMachinesDoc(): string {
  return [
    '# Parley machines',
    '',
    'Generated by `npm run diagrams` from the machine definitions; a test fails when this file is out of date,',
    'and another renders every diagram with Mermaid.',
    'Edges read `events [guard: parameters] / actions(parameters)`, one line per guard and actions; `done:` and',
    '`error:` are the results of invoked actors, `after` a delay, `always` an eventless transition. A dashed',
    '"any state" box stands for every state of the box around it (or of the diagram); a yellow box describes',
    'the state it stands in. A line `↻ event / actions` inside a box is a transition that stays in that state;',
    'a dotted `→ state` box is where an arrow leads when that state, drawn elsewhere in the diagram, has many',
    'coming in; a dotted `elsewhere` box is every state outside the diagram, named on the line `(from …)`.',
    "Laid out by ELK (`layout: elk`); a viewer without it (GitHub) falls back to Mermaid's own layout.",
    '',
    ...machines.map(({ file, machine }) => machineSection(file, machine)),
  ].join('\n');
}
