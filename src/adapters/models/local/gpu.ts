import type { GpuSupport } from './types.ts';

/** The part of `navigator` WebGPU detection reads; tests pass a fake. */
export interface GpuNavigator {
  readonly gpu?: {
    requestAdapter(options?: GPURequestAdapterOptions): Promise<GpuAdapterLike | null>;
  };
}

/** The part of a `GPUAdapter` detection reads. */
export interface GpuAdapterLike {
  readonly features: { has(feature: string): boolean };
  requestDevice(descriptor?: GPUDeviceDescriptor): Promise<{ destroy(): void }>;
}

const cpu = (reason: string): GpuSupport => ({ kind: 'cpu', reason });

function detail(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/**
 * Whether local models can run on the GPU: WebGPU present, an adapter, the `shader-f16` feature
 * llama.cpp's WebGPU backend needs, and a device that starts. Otherwise says, in words, why
 * they will run on the CPU. Never throws.
 */
export async function detectGpu(nav: GpuNavigator = navigator): Promise<GpuSupport> {
  if (!nav.gpu) return cpu('this browser has no WebGPU; running on the CPU');
  let adapter: GpuAdapterLike | null;
  try {
    adapter = await nav.gpu.requestAdapter({ powerPreference: 'high-performance' });
  } catch (error) {
    return cpu(`WebGPU did not answer (${detail(error)}); running on the CPU`);
  }
  if (!adapter) {
    return cpu('WebGPU found no usable GPU (it may be off or blocked); running on the CPU');
  }
  if (!adapter.features.has('shader-f16')) {
    return cpu('this GPU lacks shader-f16; running on the CPU');
  }
  try {
    const device = await adapter.requestDevice({ requiredFeatures: ['shader-f16'] });
    device.destroy();
  } catch (error) {
    return cpu(`the GPU would not start (${detail(error)}); running on the CPU`);
  }
  return { kind: 'webgpu' };
}
