import { Redirect, Route, Switch } from 'wouter';
import { LandingScreen } from '../screens/LandingScreen';

export function AppRoutes() {
  return (
    <Switch>
      <Route path="/landing" component={LandingScreen} />
      <Route>
        <Redirect to="/landing" replace />
      </Route>
    </Switch>
  );
}
