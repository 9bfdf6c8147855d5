import type { MemberModel } from '../../../machines/chatModel';

type Format = { money: (amount: number, currency: string) => string };
type Translate = (text: string) => string;

/**
 * What a reply on the model costs, in a few words: per reply (or free), and per million tokens read
 * and written when it has token prices.
 */
export function modelPrice(model: MemberModel, currency: string, format: Format, t: Translate) {
  const reply = model.price > 0 ? `${format.money(model.price, currency)} ${t('per reply')}` : t('Free');
  if (model.inputPrice === undefined && model.outputPrice === undefined) return reply;
  const tokens = `${format.money(model.inputPrice ?? 0, currency)} / ${format.money(model.outputPrice ?? 0, currency)}`;
  return `${reply} + ${tokens} ${t('per million tokens read / written')}`;
}
