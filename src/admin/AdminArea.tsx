import { useSelector } from '@xstate/react';
import { Suspense } from 'react';
import { Link, Route, Switch } from 'wouter';
import { useActors } from '../app/ActorsContext';
import { useDocumentTitle } from '../app/useDocumentTitle';
import { AppHeader } from '../components/AppHeader';
import { Loading } from '../components/Loading';
import { T } from '../i18n/T';
import { useT } from '../i18n/useT';
import { AdminNav } from './AdminNav';
import { AdminsOnly } from './AdminsOnly';
import { AuditScreen } from './AuditScreen';
import { BotEditorRoute } from './bots/BotEditorRoute';
import { BotsScreen } from './bots/BotsScreen';
import { CategoriesScreen } from './CategoriesScreen';
import { FeedbackScreen } from './feedback/FeedbackScreen';
import { GroupsScreen } from './groups/GroupsScreen';
import { isAdmin } from './isAdmin';
import { KnowledgeBaseScreen } from './knowledge/KnowledgeBaseScreen';
import { KnowledgeScreen } from './knowledge/KnowledgeScreen';
import { MembersScreen } from './members/MembersScreen';
import { ModelsScreen } from './models/ModelsScreen';
import { ProvidersScreen } from './ProvidersScreen';
import { SettingsScreen } from './SettingsScreen';
import { SsoScreen } from './sso/SsoScreen';
import { ToolsScreen } from './tools/ToolsScreen';
import { UsageScreen } from './usage/UsageScreen';
import { useAdmin } from './useAdmin';
import './admin.css';

/** The sections of the admin area, each behind its own address. */
function AdminSections() {
  return (
    <Switch>
      <Route path="/admin/bots/:id">{(params) => <BotEditorRoute id={params.id} />}</Route>
      <Route path="/admin/providers" component={ProvidersScreen} />
      <Route path="/admin/models" component={ModelsScreen} />
      <Route path="/admin/tools" component={ToolsScreen} />
      <Route path="/admin/categories" component={CategoriesScreen} />
      <Route path="/admin/knowledge/:id">
        {(params) => <KnowledgeBaseScreen key={params.id} baseId={params.id} />}
      </Route>
      <Route path="/admin/knowledge" component={KnowledgeScreen} />
      <Route path="/admin/members" component={MembersScreen} />
      <Route path="/admin/groups" component={GroupsScreen} />
      <Route path="/admin/settings" component={SettingsScreen} />
      <Route path="/admin/sign-in" component={SsoScreen} />
      <Route path="/admin/usage" component={UsageScreen} />
      <Route path="/admin/feedback" component={FeedbackScreen} />
      <Route path="/admin/audit" component={AuditScreen} />
      <Route component={BotsScreen} />
    </Switch>
  );
}

/**
 * The admin area (`/admin`): the organization's bots, providers, models, tools, categories, members, groups,
 * settings, sign-in (owners only), usage, feedback and audit log, for its owners and admins. A member sees
 * why they cannot enter.
 */
export default function AdminArea() {
  const { session } = useActors();
  // Loads the admin actors, the user read afresh with them: the role shown is today's.
  useAdmin();
  const role = useSelector(session, (snapshot) => snapshot.context.user?.role);
  const t = useT();
  useDocumentTitle(t('Admin'));
  return (
    <div className="app-shell">
      <AppHeader>
        <Link href="/list" className="button small">
          <T>Back to chats</T>
        </Link>
      </AppHeader>
      {isAdmin(role) ? (
        <div className="admin">
          <AdminNav />
          <main id="main" className="admin-main">
            <Suspense fallback={<Loading />}>
              <AdminSections />
            </Suspense>
          </main>
        </div>
      ) : (
        <AdminsOnly />
      )}
    </div>
  );
}
