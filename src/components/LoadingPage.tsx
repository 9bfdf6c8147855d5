import { T } from '../i18n/T';
import { Loading } from './Loading';

/** A whole page on its way (the organization or login check): a main landmark, titled, that says so. */
export function LoadingPage() {
  return (
    <main id="main" className="page">
      <h1 className="visually-hidden">
        <T>Parley</T>
      </h1>
      <Loading />
    </main>
  );
}
