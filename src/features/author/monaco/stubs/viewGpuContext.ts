// Stands in for monaco-editor/esm/vs/editor/browser/gpu/viewGpuContext.js.
import { leftOutClass } from './leftOut.ts';

/** Created only with `experimentalGpuAcceleration: 'on'`, which PolicyLab never sets. */
export const ViewGpuContext = leftOutClass("Monaco's GPU rendering");
