import { AppRoutes } from './routing/AppRoutes';

export function App() {
  return <AppRoutes />;
}
