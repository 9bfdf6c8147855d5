/**
 * The `dir` for a piece of user or bot text in a page of either direction. `auto` takes the direction
 * of its first strong letter, so Arabic in an English page and English in an Arabic one each keep
 * their order. Text with no letter at all (a formula, a number) has no direction of its own: it reads
 * left to right, as it was written, or "(2+3)*4^2 / 3" would show as "3 / 2^4*(2+3)" in Arabic.
 */
export const textDir = (text: string): 'auto' | 'ltr' => (/\p{L}/u.test(text) ? 'auto' : 'ltr');
