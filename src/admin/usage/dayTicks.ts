/** The size of a day's label under a chart, in px (the chart is drawn at its own width: a unit is a pixel). */
export const tickSize = 12;
/** The least room between two labels, in px. */
const gap = 10;

/**
 * How wide a label is at most: a CJK or full-width character is a square, any other under two thirds
 * of one (digits and Latin letters of the usual sans-serif fonts; capitals a little more).
 */
export const labelWidth = (label: string) =>
  [...label].reduce(
    (sum, char) => sum + (/[\u2e80-\u9fff\uac00-\ud7af\uff00-\uffef]/.test(char) ? 1 : 0.68),
    0,
  ) * tickSize;

export interface DayTick {
  index: number;
  /** Where the label is anchored. */
  x: number;
  anchor: 'start' | 'middle' | 'end';
}

/**
 * The days whose labels fit under a chart `width` px wide with a bar for each of `labels`: the last day,
 * then every so many days back, as many as fit side by side without touching; a label that would hang
 * over an edge is moved in (and the next one back waits until it clears it).
 */
export function dayTicks(labels: string[], width: number): DayTick[] {
  if (labels.length === 0 || width <= 0) return [];
  const slot = width / labels.length;
  const widest = Math.max(...labels.map(labelWidth));
  const step = Math.max(1, Math.ceil((widest + gap) / slot));
  const ticks: DayTick[] = [];
  let leftmost = Number.POSITIVE_INFINITY;
  let index = labels.length - 1;
  while (index >= 0) {
    const half = labelWidth(labels[index]) / 2;
    const center = index * slot + slot / 2;
    const tick: DayTick =
      center + half > width
        ? { index, x: width, anchor: 'end' }
        : center - half < 0
          ? { index, x: 0, anchor: 'start' }
          : { index, x: center, anchor: 'middle' };
    const right = tick.anchor === 'end' ? width : tick.anchor === 'start' ? 2 * half : center + half;
    // Next to a label moved in from the edge, the day before is tried, until one fits.
    if (right + gap > leftmost) {
      index -= 1;
      continue;
    }
    ticks.push(tick);
    leftmost = right - 2 * half;
    index -= step;
  }
  return ticks.reverse();
}
