import { describe, expect, it } from 'vitest';
import { report, runModel } from './harness';
import { adminModels } from './models';

describe('model-based paths through the admin machines, with full transition coverage', () => {
  it.each(adminModels.map((model) => [model.name, model] as const))('%s', (_name, model) => {
    const run = runModel(model);
    report(model.name, run);
    expect(run.paths).toBeGreaterThan(0);
    expect([...run.all].filter((key) => !run.covered.has(key))).toEqual([]);
  });
});
