import { useSelector } from '@xstate/react';
import { useEffect } from 'react';
import { Link } from 'wouter';
import { Loading } from '../../components/Loading';
import { Status } from '../../components/Status';
import { T } from '../../i18n/T';
import { useFormat } from '../../i18n/useFormat';
import { useT } from '../../i18n/useT';
import { ConfirmDialog } from '../ConfirmDialog';
import { ListProblem } from '../ListProblem';
import { TableScroll } from '../TableScroll';
import { useAdmin } from '../useAdmin';

/**
 * The organization's bots: their state at a glance, a link to each one's editor, and retiring. Members'
 * own bots are listed too, with who made it: an admin retires one, and undoes that.
 */
/** How the list names a bot's platform. */
const platformLabels = {
  builtin: 'Built-in',
  openai: 'OpenAI-compatible',
  image: 'Image generation',
} as const;

export function BotsScreen() {
  const { bots } = useAdmin();
  const t = useT();
  const format = useFormat();
  const items = useSelector(bots, (snapshot) => snapshot.context.items);
  const list = useSelector(bots, (snapshot) => snapshot.value.list);
  const change = useSelector(bots, (snapshot) => snapshot.value.change);
  const { target, problem, error, done } = useSelector(bots, (snapshot) => snapshot.context);

  useEffect(() => {
    bots.send({ type: 'LOAD' });
  }, [bots]);

  return (
    <section aria-labelledby="admin-bots">
      <div className="admin-heading">
        <h1 id="admin-bots">
          <T>Bots</T>
        </h1>
        <Link href="/admin/bots/new" className="button primary">
          <T>New bot</T>
        </Link>
      </div>
      {list === 'loading' && items.length === 0 && <Loading />}
      {list === 'failed' && <ListProblem error={error} onRetry={() => bots.send({ type: 'RETRY' })} />}
      {items.length > 0 && (
        <TableScroll stacks>
          <table className="admin-table">
            <thead>
              <tr>
                <th scope="col">{t('Name')}</th>
                <th scope="col">{t('Platform')}</th>
                <th scope="col">{t('Price per reply')}</th>
                <th scope="col">{t('Position')}</th>
                <th scope="col">{t('Status')}</th>
                <th scope="col">{t('Actions')}</th>
              </tr>
            </thead>
            <tbody>
              {items.map((bot) => (
                <tr key={bot._id}>
                  <th scope="row">
                    {bot.owner ? (
                      // A member's bot is theirs to change: named, with who made it, never edited here.
                      <>
                        <bdi>{bot.name}</bdi>
                        <span className="bot-owner">
                          {t('Made by')} <bdi>{bot.owner.name}</bdi>
                        </span>
                      </>
                    ) : (
                      <Link href={`/admin/bots/${bot._id}`}>
                        <bdi>{bot.name}</bdi>
                      </Link>
                    )}
                  </th>
                  <td data-label={t('Platform')}>{t(platformLabels[bot.platform])}</td>
                  <td data-label={t('Price per reply')}>{format.number(bot.price)}</td>
                  <td data-label={t('Position')}>{bot.position ?? ''}</td>
                  <td data-label={t('Status')}>{bot.active && !bot.retired ? t('Active') : t('Retired')}</td>
                  <td>
                    {bot.retired && (
                      <button
                        type="button"
                        className="button small"
                        aria-label={`${t('Undo')} ${bot.name}`}
                        disabled={change !== 'idle'}
                        onClick={() =>
                          bots.send({
                            type: 'SAVE',
                            change: { kind: 'update', id: bot._id, values: { retired: false } },
                          })
                        }
                      >
                        <T>Undo</T>
                      </button>
                    )}
                    {bot.active && !bot.retired && (
                      <button
                        type="button"
                        className="button small danger"
                        aria-label={`${t('Retire')} ${bot.name}`}
                        onClick={() => bots.send({ type: 'ASK_REMOVE', record: bot })}
                      >
                        <T>Retire</T>
                      </button>
                    )}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </TableScroll>
      )}
      {list === 'loaded' && items.length === 0 && (
        <p className="muted">
          <T>No bots yet.</T>
        </p>
      )}
      <Status message={done === 'remove' ? 'Bot retired' : null} />
      {(change === 'confirming' || change === 'removing') && target && (
        <ConfirmDialog
          title="Retire this bot?"
          message="It leaves the catalogue; its conversations are kept and can still be read."
          name={target.name}
          confirm="Retire"
          busy={change === 'removing'}
          error={problem?.message ?? null}
          onConfirm={() => bots.send({ type: 'CONFIRM' })}
          onCancel={() => bots.send({ type: 'CANCEL' })}
        />
      )}
    </section>
  );
}
