// What the page uses of browsers that TypeScript's DOM library (4.8) does not declare: Safari's
// prefixed Fullscreen API, the Screen Wake Lock API and fetchPriority on images.

interface Document {
  readonly webkitFullscreenElement?: Element | null;
  readonly webkitFullscreenEnabled?: boolean;
  webkitExitFullscreen?(): Promise<void>;
}

interface Element {
  webkitRequestFullscreen?(options?: FullscreenOptions): Promise<void>;
}

interface WakeLockSentinel { release(): Promise<void>; }

interface Navigator {
  readonly wakeLock?: { request(type: 'screen'): Promise<WakeLockSentinel> };
}

interface HTMLImageElement {
  fetchPriority: 'high' | 'low' | 'auto';
}
