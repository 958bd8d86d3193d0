import { parseDocument } from 'yaml';

/**
 * Formats a YAML file the way the examples are written: two-space indents, lists indented under
 * their key, comments kept. Returns undefined for text that is not valid YAML (nothing to format).
 */
export function formatYaml(text: string): string | undefined {
  const doc = parseDocument(text);
  if (doc.errors.length > 0) return undefined;
  return doc.toString({ indent: 2, indentSeq: true, lineWidth: 0, flowCollectionPadding: true });
}
