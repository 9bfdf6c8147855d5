import { describe, expect, it } from 'vitest';
import { groupByDate } from '../../../src/workspace/conversations/dateGroups';

/** A moment so many days and hours before `now`, as the server writes it. */
const ago = (now: Date, days: number, hours = 0) => {
  const date = new Date(now);
  date.setDate(date.getDate() - days);
  date.setHours(date.getHours() - hours);
  return { updatedAt: date.toISOString(), name: `${days}d${hours}h` };
};

describe('conversation date groups', () => {
  // 10:00 local time: an hour ago is today, eleven hours ago is yesterday evening.
  const now = new Date(2026, 2, 15, 10, 0, 0);

  it('sorts conversations into Today, Yesterday, Previous 7 days, Previous 30 days and older, by calendar day', () => {
    const items = [
      ago(now, 0, 1),
      ago(now, 0, 11),
      ago(now, 1, 11),
      ago(now, 6),
      ago(now, 8),
      ago(now, 29),
      ago(now, 31),
      ago(now, 400),
    ];
    expect(
      groupByDate(items, now.getTime()).map(({ group, items: grouped }) => [
        group,
        grouped.map((item) => item.name),
      ]),
    ).toEqual([
      ['today', ['0d1h']],
      ['yesterday', ['0d11h']],
      ['week', ['1d11h', '6d0h']],
      ['month', ['8d0h', '29d0h']],
      ['older', ['31d0h', '400d0h']],
    ]);
  });

  it('keeps the order it is given within a group and leaves out empty groups', () => {
    const items = [ago(now, 10), ago(now, 0, 2), ago(now, 12)];
    expect(groupByDate(items, now.getTime())).toEqual([
      { group: 'today', items: [items[1]] },
      { group: 'month', items: [items[0], items[2]] },
    ]);
  });
});
