import type { ProjectFileName } from '../../../core/index.ts';
import {
  LineIndex,
  completionsAt,
  checkKindHover,
  hoverText,
  promptPlaceHover,
  isProjectFileName,
  symbolAt,
  wordAt,
} from '../../../core/index.ts';
import type { AppStore } from '../../../state/createAppStore.ts';
import type { monaco as Monaco } from './setup.ts';

type MonacoApi = typeof Monaco;
type TextModel = ReturnType<MonacoApi['editor']['createModel']>;

/** The model URI of a project file. */
export function fileUri(monaco: MonacoApi, file: ProjectFileName) {
  return monaco.Uri.parse(`file:///${file}`);
}

function fileOf(model: TextModel): ProjectFileName | undefined {
  const name = model.uri.path.replace(/^\//, '');
  return isProjectFileName(name) ? name : undefined;
}

const COMPLETION_KINDS = {
  policy: 'Reference',
  tool: 'Function',
  table: 'Struct',
  column: 'Field',
  parameter: 'Variable',
  variable: 'Variable',
  function: 'Method',
  value: 'EnumMember',
} as const;

let registered: { store: AppStore } | undefined;

/**
 * Registers completion, hover, go-to-definition, find-references, rename and formatting for the
 * project's YAML files. Monaco's providers are global, so they are registered once and read the
 * current store each time they run.
 */
export function registerLanguageFeatures(monaco: MonacoApi, store: AppStore) {
  if (registered) {
    registered.store = store;
    return;
  }
  registered = { store };
  const state = () => (registered ?? { store }).store.getState();
  const model = () => state().analysis?.model;
  // Go to definition, references and rename need the full parse of the whole project and a search
  // of every YAML file: the store's IDE worker does both (keeping its last parse), never this thread.
  const ask = async (
    textModel: TextModel,
    position: { lineNumber: number; column: number },
    question:
      { kind: 'symbol' | 'definition' | 'references' } | { kind: 'rename'; newName: string },
  ) => {
    const file = fileOf(textModel);
    if (!file) return undefined;
    return state().askIde({
      ...question,
      file,
      text: textModel.getValue(),
      offset: offsetOf(textModel, position),
    });
  };
  const offsetOf = (text: TextModel, position: { lineNumber: number; column: number }) =>
    text.getOffsetAt(position);
  const rangeOf = (file: ProjectFileName, start: number, end: number) => {
    const index = new LineIndex(state().project.files[file]);
    const a = index.position(start);
    const b = index.position(end);
    return new monaco.Range(a.line, a.column, b.line, b.column);
  };

  monaco.languages.registerCompletionItemProvider('yaml', {
    // "-" too: ids are hyphenated, and Monaco would otherwise end completion at each hyphen.
    triggerCharacters: [' ', '.', '[', ',', ':', '-'],
    provideCompletionItems(textModel, position) {
      const file = fileOf(textModel);
      const current = model();
      if (!file || !current) return { suggestions: [] };
      const text = textModel.getValue();
      const offset = offsetOf(textModel, position);
      const word = textModel.getWordUntilPosition(position);
      const at = wordAt(text, offset - 1);
      const startColumn =
        at && at.end === offset ? position.column - (at.end - at.start) : word.startColumn;
      const range = new monaco.Range(
        position.lineNumber,
        startColumn,
        position.lineNumber,
        position.column,
      );
      return {
        suggestions: completionsAt(current, file, text, offset).map((item) => ({
          label: item.label,
          kind: monaco.languages.CompletionItemKind[COMPLETION_KINDS[item.kind]],
          detail: item.detail,
          ...(item.documentation ? { documentation: item.documentation } : {}),
          insertText: item.label,
          range,
        })),
      };
    },
  });

  monaco.languages.registerHoverProvider('yaml', {
    provideHover(textModel, position) {
      const current = model();
      if (!current) return null;
      const offset = offsetOf(textModel, position);
      // A {{place}} of a prompt template under prompts: says what the run fills it with.
      if (fileOf(textModel) === 'scenarios.yaml') {
        const place = promptPlaceHover(textModel.getValue(), offset);
        if (place) return { contents: [{ value: place }] };
      }
      // A check's kind in rules.yaml says what the kind verifies.
      if (fileOf(textModel) === 'rules.yaml') {
        const kind = checkKindHover(textModel.getValue(), offset);
        if (kind) return { contents: [{ value: kind }] };
      }
      const symbol = symbolAt(current, textModel.getValue(), offset);
      const text = symbol && hoverText(current, symbol);
      return text ? { contents: [{ value: text }] } : null;
    },
  });

  monaco.languages.registerDefinitionProvider('yaml', {
    async provideDefinition(textModel, position) {
      const definition = (await ask(textModel, position, { kind: 'definition' }))?.places[0];
      if (!definition) return null;
      return {
        uri: fileUri(monaco, definition.file),
        range: rangeOf(definition.file, definition.start, definition.end),
      };
    },
  });

  monaco.languages.registerReferenceProvider('yaml', {
    async provideReferences(textModel, position) {
      const answer = await ask(textModel, position, { kind: 'references' });
      return (answer?.places ?? []).map((o) => ({
        uri: fileUri(monaco, o.file),
        range: rangeOf(o.file, o.start, o.end),
      }));
    },
  });

  monaco.languages.registerRenameProvider('yaml', {
    async resolveRenameLocation(textModel, position) {
      const text = textModel.getValue();
      const offset = offsetOf(textModel, position);
      const symbol = (await ask(textModel, position, { kind: 'symbol' }))?.symbol;
      const at = wordAt(text, offset) ?? wordAt(text, offset - 1);
      if (!symbol || !at)
        return {
          range: new monaco.Range(1, 1, 1, 1),
          text: '',
          rejectReason: 'Put the cursor on a policy id, a tool name or a table name to rename it.',
        };
      const start = textModel.getPositionAt(at.start);
      const end = textModel.getPositionAt(at.end);
      return {
        range: new monaco.Range(start.lineNumber, start.column, end.lineNumber, end.column),
        text: at.word,
      };
    },
    async provideRenameEdits(textModel, position, newName) {
      const answer = await ask(textModel, position, { kind: 'rename', newName: newName.trim() });
      if (!answer?.symbol) return { edits: [], rejectReason: 'Nothing to rename here.' };
      if (answer.error !== undefined) return { edits: [], rejectReason: answer.error };
      const edits = answer.places.map((o) => ({
        resource: fileUri(monaco, o.file),
        versionId: undefined,
        textEdit: { range: rangeOf(o.file, o.start, o.end), text: newName.trim() },
      }));
      return { edits };
    },
  });

  monaco.languages.registerDocumentFormattingEditProvider('yaml', {
    async provideDocumentFormattingEdits(textModel) {
      const { formatYaml } = await import('./formatYaml.ts');
      const formatted = formatYaml(textModel.getValue());
      if (formatted === undefined) return [];
      return [{ range: textModel.getFullModelRange(), text: formatted }];
    },
  });

  // Go-to-definition and references may land in another file: open it in the same editor.
  monaco.editor.registerEditorOpener({
    openCodeEditor(_source, resource, selectionOrPosition) {
      const name = resource.path.replace(/^\//, '');
      if (!isProjectFileName(name)) return false;
      const position =
        selectionOrPosition && 'startLineNumber' in selectionOrPosition
          ? { line: selectionOrPosition.startLineNumber, column: selectionOrPosition.startColumn }
          : selectionOrPosition
            ? { line: selectionOrPosition.lineNumber, column: selectionOrPosition.column }
            : { line: 1, column: 1 };
      state().revealAt(name, position.line, position.column);
      return true;
    },
  });
}
