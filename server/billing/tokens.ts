// Token prices: a reply on a model priced per token holds its maximum before its first token (the
// price of a reply, its whole context read and its longest reply written) and is charged what it
// used, never more than it held. Prices are per million tokens, amounts to four decimals (the
// columns' scale), computed in integers and rounded up.

/** How a catalogue model is priced; per-token prices null: per reply only. */
export interface Pricing {
  price: string | number;
  inputPrice: string | number | null;
  outputPrice: string | number | null;
  contextTokens: number;
}

/** The tokens a reply read (its prompt, every round of it) and wrote. */
export interface TokenUsage {
  promptTokens: number;
  completionTokens: number;
}

const scale = 10_000n;
const perMillion = 1_000_000n;
const units = (amount: string | number | null) => BigInt(Math.round(Number(amount ?? 0) * Number(scale)));
const amountOf = (value: bigint) => Number(value) / Number(scale);

/** Whether the model is priced per token (else per reply only). */
export const tokenPriced = (pricing: Pricing | null): boolean =>
  pricing !== null && (pricing.inputPrice !== null || pricing.outputPrice !== null);

/** The price plus `read` tokens at the input price and `written` at the output price, rounded up. */
function charge(pricing: Pricing, read: number, written: number): number {
  const total =
    units(pricing.price) * perMillion +
    BigInt(read) * units(pricing.inputPrice) +
    BigInt(written) * units(pricing.outputPrice);
  return amountOf((total + perMillion - 1n) / perMillion);
}

/**
 * What a reply holds before its first token: a bot's own price, a catalogue model's price per reply,
 * or for a model priced per token its maximum: the whole context read, `replyTokens` written.
 */
export function priceToHold(botPrice: string | number, model: Pricing | null, replyTokens: number): number {
  if (!model) return Number(botPrice);
  if (!tokenPriced(model)) return Number(model.price);
  return charge(model, model.contextTokens, replyTokens);
}

/** What a token-priced reply costs for the tokens it used (capped by what it held when settled). */
export const tokenCharge = (model: Pricing, usage: TokenUsage) =>
  charge(model, usage.promptTokens, usage.completionTokens);
