import * as markdown from 'monaco-editor/languages/definitions/markdown/markdown';
import * as yaml from 'monaco-editor/languages/definitions/yaml/yaml';
import type { ProjectFileLanguage } from '../../../core/index.ts';
import type { monaco as Monaco } from './setup.ts';

type Languages = (typeof Monaco)['languages'];

const DEFINITIONS: Record<ProjectFileLanguage, typeof yaml> = { markdown, yaml };

/**
 * Registers the languages the project's files are written in (Markdown and YAML), with their
 * tokenizers and bracket, comment and indentation rules given at once. Monaco's own
 * `languages/definitions/<id>/register` would fetch each tokenizer as another chunk once a file
 * of it opens, so the first file would show uncoloured until a second round trip came back.
 */
export function registerLanguages(languages: Languages) {
  for (const [id, definition] of Object.entries(DEFINITIONS)) {
    languages.register({ id });
    languages.setLanguageConfiguration(id, definition.conf);
    languages.setMonarchTokensProvider(id, definition.language);
  }
}
