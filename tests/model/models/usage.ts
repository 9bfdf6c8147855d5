import { usageMachine } from '../../../machines/usage';
import type { MachineModel } from '../harness';
import { expect } from '../harness';
import { done, failed, lastCall, recording } from './shared';

const report = {
  days: 30,
  since: '2026-01-01',
  currency: 'EUR',
  totals: { messages: 3, replies: 2, spend: 0.5 },
  perDay: [{ date: '2026-01-30', messages: 3, replies: 2, spend: 0.5 }],
  perBot: [],
  perMember: [],
};

export const usageModel: MachineModel = {
  name: 'usage',
  provide: (world) =>
    usageMachine.provide({
      actors: {
        fetchUsage: recording(world, 'fetchUsage'),
        downloadUsage: recording(world, 'downloadUsage'),
      },
    }),
  inputs: [undefined],
  events: [
    { type: 'LOAD' },
    { type: 'RELOAD' },
    { type: 'DOWNLOAD' },
    { type: 'RESET' },
    done('fetchUsage', report),
    failed('fetchUsage'),
    done('downloadUsage'),
    failed('downloadUsage'),
  ],
  serialize: (snapshot) =>
    JSON.stringify([
      snapshot.value,
      !!snapshot.context.report,
      !!snapshot.context.error,
      !!snapshot.context.downloadError,
    ]),
  check: (snapshot, world, event) => {
    const { context } = snapshot;
    const value = snapshot.value as Record<string, string>;
    if (value.report === 'loading') expect(lastCall(world, 'fetchUsage')).toBe('fetchUsage {"days":30}');
    if (value.download === 'downloading') {
      expect(lastCall(world, 'downloadUsage')).toBe('downloadUsage {"days":30}');
      expect(context.downloadError).toBeNull();
    }
    if (value.report === 'loaded') expect(context.report).toEqual(report);
    if (value.report === 'failed') expect(context.error).toBe('fetchUsage failed');
    if (event?.type === 'xstate.error.actor.downloadUsage')
      expect(context.downloadError).toBe('downloadUsage failed');
    if (event?.type === 'RESET')
      expect(context).toEqual({ days: 30, report: null, error: null, downloadError: null });
  },
};
