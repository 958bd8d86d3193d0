// Stands in for monaco-editor/esm/vs/editor/common/model/tokens/treeSitter/treeSitterSyntaxTokenBackend.js.
import { leftOutClass } from './leftOut.ts';

/** Created only for a language the tree-sitter service supports; the standalone one supports none. */
export const TreeSitterSyntaxTokenBackend = leftOutClass("Monaco's tree-sitter colouring");
