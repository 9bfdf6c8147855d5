import { textDir } from '../i18n/bidi';

/** A title or a name set apart from the text around it, so mixed directions keep their order. */
export function Bdi({ text }: { text: string }) {
  return <bdi dir={textDir(text)}>{text}</bdi>;
}
