/**
 * Chromium flags for a headless scraping browser: no sandbox (containers run as root), no
 * background traffic of its own, no QUIC (UDP would bypass the proxy), and WebRTC kept from
 * opening UDP sockets outside the proxy.
 */
export const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
  '--disable-quic',
  '--disable-dev-shm-usage',
  '--force-webrtc-ip-handling-policy=disable_non_proxied_udp',
  '--webrtc-ip-handling-policy=disable_non_proxied_udp',
];
