import { useT } from './useT';

/** A piece of UI text in the user's language: `<T>Log in</T>`. */
export function T({ children }: { children: string }) {
  return useT()(children);
}
