/** A price or balance in the user's language, e.g. `€10.00` or `10,00 €`. */
export function formatMoney(amount: number, currency: string, language: string): string {
  try {
    return new Intl.NumberFormat(language, { style: 'currency', currency, maximumFractionDigits: 4 }).format(
      amount,
    );
  } catch {
    return `${amount} ${currency}`;
  }
}
