import { describe, expect, it } from 'vitest';
import { priceToHold, tokenCharge } from '../../server/billing/tokens';

describe('token prices', () => {
  const metered = { price: '0.0100', inputPrice: '2.5000', outputPrice: '10.0000', contextTokens: 8192 };

  it('holds the price of a reply, or a token-priced model’s maximum: its whole context read, its longest reply written', () => {
    expect(priceToHold('0.2500', null, 4096)).toBe(0.25);
    expect(priceToHold('0.2500', { ...metered, inputPrice: null, outputPrice: null }, 4096)).toBe(0.01);
    // 0.01 + 8192 × 2.5 / 1e6 + 1000 × 10 / 1e6 = 0.01 + 0.02048 + 0.01 = 0.04048 → 0.0405 (up).
    expect(priceToHold('0.2500', metered, 1000)).toBe(0.0405);
  });

  it('charges what the tokens cost, rounded up to the fourth decimal, exactly for large counts', () => {
    expect(tokenCharge(metered, { promptTokens: 0, completionTokens: 0 })).toBe(0.01);
    // 0.01 + 3 × 2.5e-6 + 1 × 1e-5 = 0.0100175 → 0.0101.
    expect(tokenCharge(metered, { promptTokens: 3, completionTokens: 1 })).toBe(0.0101);
    expect(
      tokenCharge({ ...metered, inputPrice: '0.3333' }, { promptTokens: 3_000_000, completionTokens: 0 }),
    ).toBe(1.0099);
    expect(
      tokenCharge({ ...metered, outputPrice: null }, { promptTokens: 1_000_000, completionTokens: 9 }),
    ).toBe(2.51);
  });
});
