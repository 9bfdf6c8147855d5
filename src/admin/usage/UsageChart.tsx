import { useId, useRef } from 'react';
import type { UsageDay } from '../../../machines/usage';
import { useT } from '../../i18n/useT';
import { dayTicks, tickSize } from './dayTicks';
import { useWidth } from './useWidth';

interface UsageChartProps {
  title: string;
  days: UsageDay[];
  /** Which figure the bars show. */
  measure: 'messages' | 'replies' | 'spend';
  /** How a value reads in a bar's title (a number, or money). */
  format: (value: number) => string;
  formatDay: (date: string) => string;
}

const height = 160;
const top = tickSize + 6;
const bottom = tickSize + 14;

/**
 * One figure per day as bars: hand-drawn SVG, each bar titled with its day and value. The table
 * beside it carries the same figures for screen readers, so the picture itself is one labelled image.
 * It is drawn at the width it is shown (a unit is a pixel), so its labels keep their size on a phone;
 * as many days are labelled as fit side by side.
 */
export function UsageChart({ title, days, measure, format, formatDay }: UsageChartProps) {
  const t = useT();
  const titleId = useId();
  const figure = useRef<HTMLElement>(null);
  const width = useWidth(figure, 600);
  const max = Math.max(1, ...days.map((day) => day[measure]));
  const slot = width / Math.max(1, days.length);
  const plot = height - top - bottom;
  const ticks = dayTicks(
    days.map((day) => formatDay(day.date)),
    width,
  );
  return (
    <figure className="usage-chart" ref={figure}>
      <figcaption id={titleId}>{t(title)}</figcaption>
      <svg viewBox={`0 0 ${width} ${height}`} role="img" aria-labelledby={titleId}>
        <title>{t(title)}</title>
        <line x1="0" x2={width} y1={height - bottom} y2={height - bottom} className="axis" />
        {days.map((day, index) => {
          const value = day[measure];
          const barHeight = (value / max) * plot;
          return (
            <rect
              key={day.date}
              x={index * slot + slot * 0.15}
              y={height - bottom - barHeight}
              width={slot * 0.7}
              height={Math.max(barHeight, value > 0 ? 1 : 0)}
              className="bar"
            >
              <title>{`${formatDay(day.date)}: ${format(value)}`}</title>
            </rect>
          );
        })}
        {ticks.map((tick) => (
          <text key={tick.index} x={tick.x} y={height - 8} textAnchor={tick.anchor} className="tick">
            {formatDay(days[tick.index].date)}
          </text>
        ))}
        <text x="0" y={tickSize} className="tick max">
          {format(max)}
        </text>
      </svg>
    </figure>
  );
}
