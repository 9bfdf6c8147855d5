import type { Db } from '../../db/database';
import { storageBytes, storageQuotaMb } from '../../files/store';

interface Counts {
  messages: string;
  replies: string;
  spend: string;
}
const numbers = (counted: Counts) => ({
  messages: Number(counted.messages),
  replies: Number(counted.replies),
  spend: Number(counted.spend),
});

/**
 * Messages of the organization's topics since the first day counted, with their day (UTC), and
 * completions through the API (a message and a reply each; those stored as topics count once).
 * $1: the organization, $2: how many days.
 */
const counted = `with since as (
    select (date_trunc('day', now() at time zone 'utc') - make_interval(days => $2::int - 1)) at time zone 'utc' as at),
  counted as (
    select (m.created_at at time zone 'utc')::date as day, t.bot_id, t.user_id, null::text as key_id,
           (m.role = 'user')::int as message, (m.role = 'bot' and m.status = 'complete')::int as reply,
           case when m.role = 'bot' then coalesce(m.cost, 0) else 0 end as cost
    from messages m join topics t on t.id = m.topic_id, since
    where t.tenant = $1 and m.created_at >= since.at and m.api_call_id is null
    union all
    select (c.created_at at time zone 'utc')::date, c.bot_id, c.user_id, c.key_id,
           1, (c.status = 'complete')::int, coalesce(c.cost, 0)
    from api_calls c, since
    where c.tenant = $1 and c.created_at >= since.at)`;
const sums =
  'coalesce(sum(message), 0) as messages, coalesce(sum(reply), 0) as replies, coalesce(sum(cost), 0) as spend';

/**
 * Usage of the organization over the last `days` days (UTC, today included): messages, completed
 * replies and spend in total, per day (every day, oldest first), per bot, per member, per API key and
 * per group (what its members now used), and tool calls per tool (denied ones left out).
 */
export async function readUsage(db: Db, tenant: string, days: number) {
  const params = [tenant, days];
  const [perDay, perBot, perMember, totals, currency, storage, quota, perGroup, perKey, perTool] =
    await Promise.all([
      db.query<Counts & { date: string }>(
        `${counted}, days as (
           select generate_series(0, $2::int - 1) as back)
         select to_char((now() at time zone 'utc')::date - days.back, 'YYYY-MM-DD') as date, ${sums}
         from days left join counted on counted.day = (now() at time zone 'utc')::date - days.back
         group by days.back order by days.back desc`,
        params,
      ),
      db.query<Counts & { id: string; name: string }>(
        `${counted} select b.id, b.name, ${sums} from counted join bots b on b.id = counted.bot_id
         group by b.id, b.name order by spend desc, replies desc, b.name`,
        params,
      ),
      db.query<Counts & { id: string; display_name: string; username: string }>(
        `${counted} select u.id, u.display_name, u.username, ${sums} from counted join users u on u.id = counted.user_id
         group by u.id, u.display_name, u.username order by spend desc, replies desc, lower(u.display_name)`,
        params,
      ),
      db.query<Counts>(`${counted} select ${sums} from counted`, params),
      db.query<{ currency: string }>('select currency from organizations where subdomain = $1', [tenant]),
      storageBytes(db, tenant),
      storageQuotaMb(db, tenant),
      db.query<Counts & { id: string; name: string; monthly_budget: string | null; members: string }>(
        `${counted} select g.id, g.name, g.monthly_budget,
           (select count(*) from group_members x where x.group_id = g.id) as members, ${sums}
         from groups g left join group_members gm on gm.group_id = g.id
           left join counted on counted.user_id = gm.user_id
         where g.tenant = $1
         group by g.id, g.name, g.monthly_budget order by spend desc, replies desc, lower(g.name)`,
        params,
      ),
      db.query<
        Counts & {
          id: string;
          name: string;
          last4: string;
          user_id: string;
          display_name: string;
          revoked: boolean;
        }
      >(
        `${counted} select k.id, k.name, k.last4, k.user_id, u.display_name, k.revoked_at is not null as revoked, ${sums}
         from counted join api_keys k on k.id = counted.key_id join users u on u.id = k.user_id
         group by k.id, k.name, k.last4, k.user_id, u.display_name, k.revoked_at
         order by spend desc, replies desc, lower(k.name)`,
        params,
      ),
      db.query<{ tool: string; calls: string }>(
        `select s.tool, count(*) as calls from tool_steps s
         where s.tenant = $1 and s.status not in ('denied', 'awaiting_approval')
           and s.created_at >= (date_trunc('day', now() at time zone 'utc') - make_interval(days => $2::int - 1)) at time zone 'utc'
         group by s.tool order by calls desc, s.tool`,
        params,
      ),
    ]);
  return {
    days,
    since: perDay.rows[0]?.date ?? '',
    currency: currency.rows[0]?.currency ?? '',
    storageBytes: storage,
    storageQuotaMb: quota,
    totals: numbers(totals.rows[0]),
    perDay: perDay.rows.map((day) => ({ date: day.date, ...numbers(day) })),
    perBot: perBot.rows.map((bot) => ({ _id: bot.id, name: bot.name, ...numbers(bot) })),
    perMember: perMember.rows.map((member) => ({
      _id: member.id,
      displayName: member.display_name,
      username: member.username,
      ...numbers(member),
    })),
    perKey: perKey.rows.map((key) => ({
      _id: key.id,
      name: key.name,
      last4: key.last4,
      userId: key.user_id,
      displayName: key.display_name,
      revoked: key.revoked,
      ...numbers(key),
    })),
    perTool: perTool.rows.map((tool) => ({ tool: tool.tool, calls: Number(tool.calls) })),
    perGroup: perGroup.rows.map((group) => ({
      _id: group.id,
      name: group.name,
      monthlyBudget: group.monthly_budget === null ? null : Number(group.monthly_budget),
      members: Number(group.members),
      ...numbers(group),
    })),
  };
}

export type Usage = Awaited<ReturnType<typeof readUsage>>;
