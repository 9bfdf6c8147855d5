import { Loading } from './Loading';

/**
 * A whole page on its way (the organization or login check): a main landmark that says so. No
 * heading: focus after a route change waits for the screen's own h1, not one about to go.
 */
export function LoadingPage() {
  return (
    <main id="main" className="page">
      <Loading />
    </main>
  );
}
