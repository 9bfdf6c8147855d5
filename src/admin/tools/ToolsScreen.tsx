import { useSelector } from '@xstate/react';
import { useEffect } from 'react';
import type { McpServerRecord } from '../../../machines/adminList';
import { Loading } from '../../components/Loading';
import { Status } from '../../components/Status';
import { T } from '../../i18n/T';
import { useT } from '../../i18n/useT';
import { ConfirmDialog } from '../ConfirmDialog';
import { ListProblem } from '../ListProblem';
import { useAdmin } from '../useAdmin';
import { McpServerDialog } from './McpServerDialog';

const lead =
  "Tools let model bots act: calculate, read a web page, search knowledge, or call the tools of an MCP server. Choose each bot's tools in its editor.";
const notices = {
  create: 'MCP server added',
  update: 'MCP server saved',
  remove: 'MCP server removed',
} as const;

/** A tool's name and what it does, as a list item. */
function ToolItem({ name, description }: { name: string; description: string }) {
  return (
    <li>
      <code>{name}</code>
      {description && (
        <>
          {' — '}
          <bdi>{description}</bdi>
        </>
      )}
    </li>
  );
}

/** One MCP server's card: address, token's end, the bots using it, its tools; edit and remove. */
function ServerCard({
  server,
  onEdit,
  onRemove,
}: {
  server: McpServerRecord;
  onEdit: () => void;
  onRemove: () => void;
}) {
  const t = useT();
  return (
    <li className="card">
      <h3>
        <bdi>{server.name}</bdi>
      </h3>
      <dl className="facts">
        <dt>{t('URL')}</dt>
        <dd>
          <code>{server.url}</code>
        </dd>
        <dt>{t('Token')}</dt>
        <dd>
          <code>{server.token || t('None')}</code>
        </dd>
        <dt>{t('Used by')}</dt>
        <dd>
          {server.bots.length ? <bdi>{server.bots.map((bot) => bot.name).join(', ')}</bdi> : t('No bot yet')}
        </dd>
      </dl>
      {server.error && (
        <p className="field-error">
          {t('The last call failed:')} {server.error}
        </p>
      )}
      <details className="tool-list">
        <summary>
          {t('Tools')} ({server.tools.length})
        </summary>
        {server.tools.length ? (
          <ul>
            {server.tools.map((tool) => (
              <ToolItem key={tool.name} {...tool} />
            ))}
          </ul>
        ) : (
          <p className="muted">
            <T>This server lists no tools.</T>
          </p>
        )}
      </details>
      <div className="actions">
        <button
          type="button"
          className="button small"
          aria-haspopup="dialog"
          aria-label={`${t('Edit')} ${server.name}`}
          onClick={onEdit}
        >
          <T>Edit</T>
        </button>
        <button
          type="button"
          className="button small danger"
          aria-label={`${t('Remove')} ${server.name}`}
          onClick={onRemove}
        >
          <T>Remove</T>
        </button>
      </div>
    </li>
  );
}

/**
 * The tools the organization's bots may use: the built-in ones, and the MCP servers an admin adds
 * (with the tools each listed). Add, edit and remove servers; bots are given tools in their editor.
 */
export function ToolsScreen() {
  const { mcpServers, tools } = useAdmin();
  const t = useT();
  const servers = useSelector(mcpServers, (snapshot) => snapshot.context.items);
  const list = useSelector(mcpServers, (snapshot) => snapshot.value.list);
  const change = useSelector(mcpServers, (snapshot) => snapshot.value.change);
  const { editing, target, problem, error, done } = useSelector(mcpServers, (snapshot) => snapshot.context);
  const builtins = useSelector(tools, (snapshot) =>
    snapshot.context.items.filter((tool) => tool.source === 'builtin'),
  );
  const toolsList = useSelector(tools, (snapshot) => snapshot.value.list);
  const toolsError = useSelector(tools, (snapshot) => snapshot.context.error);

  useEffect(() => {
    mcpServers.send({ type: 'LOAD' });
    tools.send({ type: 'LOAD' });
  }, [mcpServers, tools]);

  const dialogOpen = (change === 'editing' || change === 'saving') && editing !== null;
  const users = target && 'bots' in target ? target.bots : [];
  return (
    <section aria-labelledby="admin-tools">
      <div className="admin-heading">
        <h1 id="admin-tools">
          <T>Tools</T>
        </h1>
        <button
          type="button"
          className="button primary"
          aria-haspopup="dialog"
          onClick={() => mcpServers.send({ type: 'EDIT', id: 'new' })}
        >
          <T>Add MCP server</T>
        </button>
      </div>
      <p className="lead">{t(lead)}</p>
      <h2>
        <T>MCP servers</T>
      </h2>
      {list === 'loading' && servers.length === 0 && <Loading />}
      {list === 'failed' && <ListProblem error={error} onRetry={() => mcpServers.send({ type: 'RETRY' })} />}
      {list === 'loaded' && servers.length === 0 && (
        <p className="muted">
          <T>No MCP servers yet.</T>
        </p>
      )}
      <ul className="card-list">
        {servers.map((server) => (
          <ServerCard
            key={server._id}
            server={server}
            onEdit={() => mcpServers.send({ type: 'EDIT', id: server._id })}
            onRemove={() => mcpServers.send({ type: 'ASK_REMOVE', record: server })}
          />
        ))}
      </ul>
      <h2>
        <T>Built-in tools</T>
      </h2>
      {toolsList === 'failed' && (
        <ListProblem error={toolsError} onRetry={() => tools.send({ type: 'RETRY' })} />
      )}
      <ul className="tool-list">
        {builtins.map((tool) => (
          <ToolItem key={tool.name} name={tool.name} description={t(tool.description)} />
        ))}
      </ul>
      <Status message={done ? notices[done] : null} />
      {dialogOpen && (
        <McpServerDialog
          server={servers.find((item) => item._id === editing) ?? null}
          saving={change === 'saving'}
          problem={problem}
          onSave={(values) =>
            mcpServers.send({
              type: 'SAVE',
              change:
                editing === 'new' ? { kind: 'create', values } : { kind: 'update', id: editing, values },
            })
          }
          onCancel={() => mcpServers.send({ type: 'CANCEL' })}
        />
      )}
      {(change === 'confirming' || change === 'removing') && target && (
        <ConfirmDialog
          title="Remove this MCP server?"
          message={
            users.length
              ? 'Its tools are taken away from the bots that use them.'
              : 'No bot uses its tools. Its token is deleted.'
          }
          name={target.name}
          confirm="Remove"
          busy={change === 'removing'}
          error={problem?.message ?? null}
          onConfirm={() => mcpServers.send({ type: 'CONFIRM' })}
          onCancel={() => mcpServers.send({ type: 'CANCEL' })}
        >
          {users.length > 0 && (
            <p>
              {t('Bots that lose tools:')} <bdi>{users.map((bot) => bot.name).join(', ')}</bdi>
            </p>
          )}
        </ConfirmDialog>
      )}
    </section>
  );
}
