/**
 * Said once above a dialogue whose run called tools today's project does not have (a run of
 * another project): the what-if leaves those calls alone, rather than saying "no such tool" on
 * each. Nothing when there are none.
 */
export function ForeignToolsNote({ tools }: { tools: readonly string[] }) {
  if (tools.length === 0) return null;
  return (
    <p className="replay-foreign-tools" role="note" aria-label="Tools of another project">
      This run’s tools are not this project’s:{' '}
      {tools.map((name, i) => (
        <span key={name}>
          {i > 0 && ', '}
          <code>{name}</code>
        </span>
      ))}
      ; the what-if leaves those calls alone.
    </p>
  );
}
