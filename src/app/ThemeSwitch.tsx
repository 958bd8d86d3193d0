import type { ThemePreference } from '../state/slices/uiSlice.ts';
import { THEME_PREFERENCES } from '../state/slices/uiSlice.ts';
import { selectThemePreference } from '../state/selectors.ts';
import { useAppStore } from '../state/useAppStore.ts';
import type { IconName } from '../ui/Icon.tsx';
import { Icon } from '../ui/Icon.tsx';

const CHOICES: Record<ThemePreference, { label: string; icon: IconName }> = {
  system: { label: 'Follow the system theme', icon: 'system' },
  light: { label: 'Light theme', icon: 'sun' },
  dark: { label: 'Dark theme', icon: 'moon' },
};

/** Three radio buttons: follow the system, light, dark. Arrow keys move between them. */
export function ThemeSwitch() {
  const preference = useAppStore(selectThemePreference);
  const setThemePreference = useAppStore((s) => s.setThemePreference);

  return (
    <div className="segmented" role="radiogroup" aria-label="Theme">
      {THEME_PREFERENCES.map((choice) => {
        const checked = choice === preference;
        return (
          <button
            key={choice}
            type="button"
            role="radio"
            aria-checked={checked}
            aria-label={CHOICES[choice].label}
            title={CHOICES[choice].label}
            tabIndex={checked ? 0 : -1}
            className="segmented-option"
            onClick={() => {
              setThemePreference(choice);
            }}
            onKeyDown={(e) => {
              const step = { ArrowRight: 1, ArrowDown: 1, ArrowLeft: -1, ArrowUp: -1 }[e.key];
              if (step === undefined) return;
              e.preventDefault();
              const i = THEME_PREFERENCES.indexOf(choice);
              const next = THEME_PREFERENCES[(i + step + 3) % 3] ?? 'system';
              setThemePreference(next);
              const group = e.currentTarget.parentElement;
              group?.querySelector<HTMLElement>(`[data-choice="${next}"]`)?.focus();
            }}
            data-choice={choice}
          >
            <Icon name={CHOICES[choice].icon} size={15} />
          </button>
        );
      })}
    </div>
  );
}
