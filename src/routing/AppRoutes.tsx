import { lazy, type ReactNode, Suspense, useEffect } from 'react';
import { Redirect, Route, Switch } from 'wouter';
import { Loading } from '../components/Loading';
import { LandingScreen } from '../screens/LandingScreen';
import { LoginScreen } from '../screens/LoginScreen';
import { NotFoundScreen } from '../screens/NotFoundScreen';
import { WelcomeScreen } from '../screens/WelcomeScreen';
import { LoginCheck } from './LoginCheck';
import { OrganizationCheck } from './OrganizationCheck';

// The logged-in product loads on demand, so the landing page stays small (seed-spec §2: list is lazy).
const Workspace = lazy(() => import('../workspace/Workspace'));
const loadHome = () => import('../home/HomeArea');
const loadChat = () => import('../chat/ChatArea');
const HomeArea = lazy(loadHome);
const ChatArea = lazy(loadChat);
const AdminArea = lazy(() => import('../admin/AdminArea'));
const SharedConversationScreen = lazy(() => import('../share/SharedConversationScreen'));
// Each visitor needs them once at most: the landing page does not carry them.
const ForgotPasswordScreen = lazy(() =>
  import('../screens/ForgotPasswordScreen').then((module) => ({ default: module.ForgotPasswordScreen })),
);
const RegisterScreen = lazy(() =>
  import('../screens/RegisterScreen').then((module) => ({ default: module.RegisterScreen })),
);

/** The screen's code, asked for alongside the workspace's rather than once the workspace has rendered. */
function LoadScreen({ screen }: { screen: () => Promise<unknown> }) {
  // A failed chunk shows where the screen renders (its lazy component), not here.
  useEffect(() => void screen().catch(() => undefined), [screen]);
  return null;
}

/**
 * A logged-in screen, behind both checks, inside the workspace: the same element for home and chat,
 * so the sidebar stays put (its scroll, its search) while the user moves between them.
 */
function LoggedIn({ screen, children }: { screen: () => Promise<unknown>; children: ReactNode }) {
  return (
    <OrganizationCheck>
      <LoginCheck>
        <LoadScreen screen={screen} />
        <Suspense fallback={<Loading />}>
          <Workspace>{children}</Workspace>
        </Suspense>
      </LoginCheck>
    </OrganizationCheck>
  );
}

/** Seed-spec §2 routes, each behind the checks it names. */
export function AppRoutes() {
  return (
    <Switch>
      <Route path="/">
        <Redirect to="/list" replace />
      </Route>
      <Route path="/list">
        <LoggedIn screen={loadHome}>
          <HomeArea />
        </LoggedIn>
      </Route>
      <Route path="/topics/:id">
        {(params) => (
          <LoggedIn screen={loadChat}>
            <ChatArea topicId={params.id} />
          </LoggedIn>
        )}
      </Route>
      <Route path={/^\/admin(?:\/.*)?$/}>
        <OrganizationCheck>
          <LoginCheck>
            <Suspense fallback={<Loading />}>
              <AdminArea />
            </Suspense>
          </LoginCheck>
        </OrganizationCheck>
      </Route>
      <Route path="/s/:shareId">
        {(params) => (
          <OrganizationCheck>
            <Suspense fallback={<Loading />}>
              <SharedConversationScreen shareId={params.shareId} />
            </Suspense>
          </OrganizationCheck>
        )}
      </Route>
      <Route path="/landing">
        <OrganizationCheck>
          <LandingScreen />
        </OrganizationCheck>
      </Route>
      <Route path="/register">
        <OrganizationCheck>
          <Suspense fallback={<Loading />}>
            <RegisterScreen />
          </Suspense>
        </OrganizationCheck>
      </Route>
      <Route path="/login">
        <OrganizationCheck>
          <LoginScreen />
        </OrganizationCheck>
      </Route>
      <Route path="/forgot">
        <OrganizationCheck>
          <Suspense fallback={<Loading />}>
            <ForgotPasswordScreen />
          </Suspense>
        </OrganizationCheck>
      </Route>
      <Route path="/welcome" component={WelcomeScreen} />
      <Route component={NotFoundScreen} />
    </Switch>
  );
}
