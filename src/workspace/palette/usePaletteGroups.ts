import { useSelector } from '@xstate/react';
import type { RefObject } from 'react';
import { useLocation } from 'wouter';
import type { ActorRefFrom } from 'xstate';
import { activeBots } from '../../../machines/bots';
import type { commandPaletteMachine } from '../../../machines/commandPalette';
import { isMobileWidth } from '../../../machines/sidePanel';
import { type ThemeChoice, themeChoices } from '../../../machines/theme';
import { isAdmin } from '../../admin/isAdmin';
import { sectionsFor } from '../../admin/sections';
import { useActors } from '../../app/ActorsContext';
import type { PaletteActors } from '../../app/paletteActors';
import { useWorkspace } from '../../app/useWorkspace';
import { languages } from '../../i18n/languages';
import { useT } from '../../i18n/useT';
import type { PaletteGroup } from './options';

const themeLabels: Record<ThemeChoice, string> = { light: 'Light', dark: 'Dark', system: 'System' };

/**
 * Types the words into the message box as a person would (React hears an input event), so the box's
 * own `/` menu opens on them and asks for the prompt's placeholders.
 */
function typeInto(box: HTMLTextAreaElement, text: string) {
  Object.getOwnPropertyDescriptor(HTMLTextAreaElement.prototype, 'value')?.set?.call(box, text);
  box.dispatchEvent(new Event('input', { bubbles: true }));
  box.focus();
}

/**
 * Everything the palette offers, by group, before filtering: the conversations the server found, the
 * bots, the projects, the saved prompts (in a chat: they go in its message box), and the actions (new
 * chat, the shortcuts, theme, language, the admin screens the user's role opens). Choosing one closes
 * the palette first (`close`), then does it; `returnTo` is where focus goes then, if not back.
 */
export function usePaletteGroups(
  palette: ActorRefFrom<typeof commandPaletteMachine>,
  prompts: PaletteActors['prompts'],
  returnTo: RefObject<HTMLElement | null>,
): PaletteGroup[] {
  const { bots, language, session } = useActors();
  const { theme, projects, conversations } = useWorkspace();
  const t = useT();
  const [, navigate] = useLocation();
  const found = useSelector(palette, (snapshot) => snapshot.context.found);
  const botList = useSelector(bots, (snapshot) => snapshot.context.bots);
  const projectList = useSelector(projects, (snapshot) => snapshot.context.items);
  const currentTheme = useSelector(theme, (snapshot) => snapshot.value);
  const currentLanguage = useSelector(language, (snapshot) => snapshot.context.language);
  const role = useSelector(session, (snapshot) => snapshot.context.user?.role);
  const promptList = useSelector(prompts, (snapshot) => snapshot.context.data ?? []);
  // The chat's message box, where a prompt goes; none on the home screen. The palette, a modal, keeps it as it is.
  const box = document.querySelector<HTMLTextAreaElement>('.composer textarea');

  const close = () => palette.send({ type: 'CLOSE' });
  const go = (to: string) => () => {
    close();
    navigate(to);
  };
  // The languages' names in the page's language too: Deutsch is found by its English name in English.
  const names = new Intl.DisplayNames([currentLanguage], { type: 'language' });

  return [
    {
      key: 'conversations',
      label: t('Conversations'),
      options: found.map((conversation) => ({
        id: `conversation-${conversation._id}`,
        label: conversation.title,
        detail: conversation.snippet?.text ?? conversation.bot.name,
        run: go(`/topics/${encodeURIComponent(conversation._id)}`),
      })),
    },
    {
      key: 'bots',
      label: t('Bots'),
      options: activeBots(botList).map((bot) => ({
        id: `bot-${bot._id}`,
        label: bot.name,
        detail: bot.description,
        run: go(`/topics/new?bot=${encodeURIComponent(bot._id)}`),
      })),
    },
    {
      key: 'projects',
      label: t('Projects'),
      options: projectList.map((project) => ({
        id: `project-${project._id}`,
        label: project.name,
        // The project's conversations show in the sidebar (the drawer, on a phone).
        run: () => {
          close();
          conversations.send({ type: 'FILTER', filter: { project: project._id, archived: false } });
          if (isMobileWidth(window.innerWidth)) conversations.send({ type: 'OPEN_DRAWER' });
        },
      })),
    },
    {
      key: 'prompts',
      label: t('Prompts'),
      options: (box ? promptList : []).map((prompt) => ({
        id: `prompt-${prompt._id}`,
        label: prompt.title,
        detail: `/${prompt.command}`,
        run: () => {
          returnTo.current = box;
          close();
          if (box) typeInto(box, `/${prompt.command}`);
        },
      })),
    },
    {
      key: 'actions',
      label: t('Actions'),
      options: [
        { id: 'new-chat', label: t('New chat'), run: go('/list') },
        {
          id: 'shortcuts',
          label: t('Keyboard shortcuts'),
          run: () => palette.send({ type: 'SHOW_SHORTCUTS' }),
        },
        ...themeChoices
          .filter((choice) => choice !== currentTheme)
          .map((choice) => ({
            id: `theme-${choice}`,
            label: `${t('Appearance')}: ${t(themeLabels[choice])}`,
            run: () => {
              close();
              theme.send({ type: 'CHOOSE', choice });
            },
          })),
        ...languages
          .filter((option) => option.code !== currentLanguage)
          .map((option) => ({
            id: `language-${option.code}`,
            label: `${t('Language')}: ${option.name}`,
            detail: names.of(option.code),
            run: () => {
              close();
              language.send({ type: 'CHANGE', language: option.code });
            },
          })),
        ...(isAdmin(role) ? sectionsFor(role === 'owner') : []).map((section) => ({
          id: `admin-${section.href}`,
          label: `${t('Admin')}: ${t(section.label)}`,
          run: go(section.href),
        })),
      ],
    },
  ];
}
