import { describe, expect, it } from 'vitest';
import { changesOf, readableValue } from '../../../src/admin/auditChanges';
import { dayTicks, labelWidth } from '../../../src/admin/usage/dayTicks';

describe('the audit log, readable', () => {
  const category = '4e2565a0-de59-40f1-83a0-ab92b50b107e';
  const gone = 'e5081a66-66c7-4e3e-b8da-0f81c94c451a';
  const readers = {
    names: { [category]: 'Poetry' },
    t: (text: string) => `«${text}»`,
    number: (value: number) => value.toFixed(2),
  };

  it('shows a change field by field: of an update only what differs, of a creation or removal what it has', () => {
    expect(
      changesOf(
        { name: 'ELIZA', price: 0.01, categories: [gone], active: true },
        { name: 'ELIZA', price: 0.07, categories: [category], active: true },
      ),
    ).toEqual([
      { field: 'price', before: 0.01, after: 0.07 },
      { field: 'categories', before: [gone], after: [category] },
    ]);
    expect(changesOf(null, { name: 'Poetry' })).toEqual([{ field: 'name', after: 'Poetry' }]);
    expect(changesOf({ name: 'Poetry' }, null)).toEqual([{ field: 'name', before: 'Poetry' }]);
    expect(changesOf({ balance: 10 }, { balance: 15, note: 'Welcome' })).toEqual([
      { field: 'balance', before: 10, after: 15 },
      { field: 'note', after: 'Welcome' },
    ]);
    expect(changesOf({ role: 'member' }, { role: 'member' })).toEqual([]);
  });

  it('reads a value as the screens show it: names for ids, words for flags and roles, never JSON', () => {
    expect(readableValue([category, gone], 'categories', readers)).toBe(`Poetry, ${gone}`);
    expect(readableValue([], 'tools', readers)).toBe('«None»');
    expect(readableValue(true, 'active', readers)).toBe('«Yes»');
    expect(readableValue(0.5, 'price', readers)).toBe('0.50');
    expect(readableValue('admin', 'role', readers)).toBe('«Admin»');
    // The same word in a field of its own is someone's text, not a role.
    expect(readableValue('admin', 'name', readers)).toBe('admin');
    expect(readableValue(null, 'note', readers)).toBe('—');
    expect(readableValue([{ _id: 'b1', name: 'Poet' }], 'botsChanged', readers)).toBe('Poet');
    expect(readableValue({ email: 'mail', name: 'display_name', roles: ['staff'] }, 'claims', readers)).toBe(
      '«Email»: mail, «Name»: display_name, roles: staff',
    );
    // A word that is a property of every object is still only a word.
    expect(readableValue('constructor', 'role', readers)).toBe('constructor');
  });
});

describe("the usage chart's day labels", () => {
  const days = Array.from({ length: 30 }, (_, index) => `Nov ${index + 1}`);

  it.each([288, 343, 995])('never touch at %i px, the last day labelled, none past an edge', (width) => {
    const ticks = dayTicks(days, width);
    expect(ticks.at(-1)?.index).toBe(29);
    const extents = ticks.map((tick) => {
      const size = labelWidth(days[tick.index]);
      const left =
        tick.anchor === 'start' ? tick.x : tick.anchor === 'end' ? tick.x - size : tick.x - size / 2;
      return [left, left + size];
    });
    for (const [left, right] of extents) {
      expect(left).toBeGreaterThanOrEqual(0);
      expect(right).toBeLessThanOrEqual(width);
    }
    for (let index = 1; index < extents.length; index += 1)
      expect(extents[index][0] - extents[index - 1][1]).toBeGreaterThanOrEqual(10);
    // Wider, more days are labelled.
    expect(ticks.length).toBeGreaterThanOrEqual(Math.floor(width / 100));
  });
});
