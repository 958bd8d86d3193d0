import { useEffect } from 'react';
import { selectEffectiveTheme } from '../state/selectors.ts';
import { useAppStore, useAppStoreApi } from '../state/useAppStore.ts';

const DARK_QUERY = '(prefers-color-scheme: dark)';

/** Follows the system's colour scheme and puts the effective theme on the root element. */
export function useThemeSync() {
  const store = useAppStoreApi();
  const theme = useAppStore(selectEffectiveTheme);

  useEffect(() => {
    const query = window.matchMedia(DARK_QUERY);
    const update = () => {
      store.getState().setSystemPrefersDark(query.matches);
    };
    update();
    query.addEventListener('change', update);
    return () => {
      query.removeEventListener('change', update);
    };
  }, [store]);

  useEffect(() => {
    const root = document.documentElement;
    root.dataset.theme = theme;
    root.style.colorScheme = theme;
  }, [theme]);
}
