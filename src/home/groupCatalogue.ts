import { type BotRecord, groupByPlatform } from '../../machines/bots';

/**
 * The catalogue's groups: admins' bots by platform (seed-spec §1), then the member's own bots
 * ("Mine") and other members' ("Made by members"). In the home chunk, not beside the machine: the
 * landing page's JS is at its budget.
 */
export function groupCatalogue<B extends BotRecord>(bots: B[], me: string | null) {
  const made = (bot: B) => (bot.owner ? (bot.owner._id === me ? 'mine' : 'members') : null);
  return [
    ...groupByPlatform(bots.filter((bot) => !bot.owner)).map((group) => ({ key: group.platform, ...group })),
    ...(['mine', 'members'] as const).flatMap((key) => {
      const members = bots.filter((bot) => made(bot) === key);
      return members.length ? [{ key, platform: null, bots: members }] : [];
    }),
  ];
}
