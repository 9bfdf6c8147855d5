import { useId } from 'react';
import type { UsageDay } from '../../../machines/usage';
import { useT } from '../../i18n/useT';

interface UsageChartProps {
  title: string;
  days: UsageDay[];
  /** Which figure the bars show. */
  measure: 'messages' | 'replies' | 'spend';
  /** How a value reads in a bar's title (a number, or money). */
  format: (value: number) => string;
  formatDay: (date: string) => string;
}

const width = 600;
const height = 160;
const top = 10;
const bottom = 24;

/**
 * One figure per day as bars: hand-drawn SVG, each bar titled with its day and value. The table
 * beside it carries the same figures for screen readers, so the picture itself is one labelled image.
 */
export function UsageChart({ title, days, measure, format, formatDay }: UsageChartProps) {
  const t = useT();
  const titleId = useId();
  const max = Math.max(1, ...days.map((day) => day[measure]));
  const slot = width / Math.max(1, days.length);
  const plot = height - top - bottom;
  return (
    <figure className="usage-chart">
      <figcaption id={titleId}>{t(title)}</figcaption>
      <svg viewBox={`0 0 ${width} ${height}`} role="img" aria-labelledby={titleId} preserveAspectRatio="none">
        <title>{t(title)}</title>
        <line x1="0" x2={width} y1={height - bottom} y2={height - bottom} className="axis" />
        {days.map((day, index) => {
          const value = day[measure];
          const barHeight = (value / max) * plot;
          return (
            <g key={day.date}>
              <rect
                x={index * slot + slot * 0.15}
                y={height - bottom - barHeight}
                width={slot * 0.7}
                height={Math.max(barHeight, value > 0 ? 1 : 0)}
                className="bar"
              >
                <title>{`${formatDay(day.date)}: ${format(value)}`}</title>
              </rect>
              {(index === 0 || index === days.length - 1 || index % 7 === 0) && (
                <text x={index * slot + slot / 2} y={height - 6} textAnchor="middle" className="tick">
                  {formatDay(day.date)}
                </text>
              )}
            </g>
          );
        })}
        <text x="4" y={top + 4} className="tick max">
          {format(max)}
        </text>
      </svg>
    </figure>
  );
}
