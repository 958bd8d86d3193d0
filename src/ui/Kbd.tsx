/** Shows a keyboard shortcut such as "Alt+1" as key caps. */
export function Kbd({ keys }: { keys: string }) {
  const parts = keys.split('+');
  return (
    <span className="kbd-group">
      {parts.map((key, i) => (
        <kbd key={`${key}-${i}`} className="kbd">
          {key}
        </kbd>
      ))}
    </span>
  );
}
