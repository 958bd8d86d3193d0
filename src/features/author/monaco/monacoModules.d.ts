// Modules of monaco-editor that ship without type declarations: contributions imported only for
// what they register, and the Monarch definitions of the two languages the project uses.
declare module 'monaco-editor/editor/browser/coreCommands';
declare module 'monaco-editor/editor/contrib/*';

declare module 'monaco-editor/languages/definitions/*' {
  import type { languages } from 'monaco-editor/editor/editor.api';
  export const conf: languages.LanguageConfiguration;
  export const language: languages.IMonarchLanguage;
}
