import { useEffect } from 'react';

/** The product's brand: the page title is it (seed-spec §1), after the screen's own name. */
const brand = 'Parley';

/** The tab's title: the screen's, then a dash and the brand (as in: Log in – Parley); the brand alone for ''. */
export function useDocumentTitle(title: string) {
  useEffect(() => {
    document.title = title && title !== brand ? `${title} – ${brand}` : brand;
  }, [title]);
}
