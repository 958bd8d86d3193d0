import type { TabChannel, TabMessage } from '../core/index.ts';
import { readTabMessage } from '../core/index.ts';

/**
 * Tabs of this app on this device, through a BroadcastChannel; where the browser has none, a
 * channel that hears nothing (each tab then still finds the other's writes when it saves).
 */
export function createBroadcastTabChannel(name = 'policylab-tabs'): TabChannel {
  if (typeof BroadcastChannel === 'undefined') return silentTabChannel;
  const channel = new BroadcastChannel(name);
  return {
    post: (message) => {
      channel.postMessage(message);
    },
    listen: (hear) => {
      const onMessage = (event: MessageEvent) => {
        const message = readTabMessage(event.data);
        if (message) hear(message);
      };
      channel.addEventListener('message', onMessage);
      return () => {
        channel.removeEventListener('message', onMessage);
      };
    },
  };
}

/** A channel that hears nothing: tests, and browsers without BroadcastChannel. */
export const silentTabChannel: TabChannel = {
  post: () => undefined,
  listen: () => () => undefined,
};

/** Two channels joined in memory, each hearing the other's posts at once: for tests of two tabs. */
export function memoryTabPair(): [TabChannel, TabChannel] {
  const hearers = [
    new Set<(message: TabMessage) => void>(),
    new Set<(message: TabMessage) => void>(),
  ];
  const end = (own: number): TabChannel => ({
    post: (message) => {
      for (const hear of hearers[1 - own] ?? []) hear(message);
    },
    listen: (hear) => {
      hearers[own]?.add(hear);
      return () => hearers[own]?.delete(hear);
    },
  });
  return [end(0), end(1)];
}
