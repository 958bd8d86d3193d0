import { useEffect } from 'react';
import { useAppStoreApi } from '../state/useAppStore.ts';

/**
 * Opens a share link pasted into the address bar of a page already open (the browser only
 * changes the fragment, without loading the page again), then drops it from the address.
 */
export function useShareArrival() {
  const store = useAppStoreApi();
  useEffect(() => {
    const arrived = () => {
      const { hash } = window.location;
      if (!hash.startsWith('#p=')) return;
      window.history.replaceState(null, '', window.location.pathname + window.location.search);
      void store.getState().openShared(hash);
    };
    window.addEventListener('hashchange', arrived);
    return () => {
      window.removeEventListener('hashchange', arrived);
    };
  }, [store]);
}
