// Stands in for monaco-editor/esm/vs/editor/browser/viewParts/viewLinesGpu/viewLinesGpu.js.
import { leftOutClass } from './leftOut.ts';

/** Created only with a GPU context (see viewGpuContext.ts). */
export const ViewLinesGpu = leftOutClass("Monaco's GPU-drawn lines");
