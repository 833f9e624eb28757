// Opening the decision window: a real popup (not a tab), centred over the page, keeping `window.opener` so the
// hosted page can post its messages back to this one.

/** Width and height of the decision window in CSS pixels, shrunk to fit small screens. */
export const POPUP_SIZE = { width: 520, height: 720 } as const;

/**
 * Opens `url` in a popup named `name`, centred over the current window, and focuses it; returns null when the
 * browser blocked it. Deliberately without `noopener`: the page needs its opener to post messages, and this side
 * needs the returned window to accept messages from it alone.
 */
export function openCentered(url: string, name: string): Window | null {
  const [width, left] = centre(POPUP_SIZE.width, screen.availWidth, window.screenX, window.outerWidth);
  const [height, top] = centre(POPUP_SIZE.height, screen.availHeight, window.screenY, window.outerHeight);
  let popup: Window | null = null;
  try {
    popup = window.open(url, name, `popup=yes,width=${width},height=${height},left=${left},top=${top}`);
  } catch {
    // Some embedded browsers throw instead of returning null.
  }
  popup?.focus();
  return popup;
}

/** One dimension of the window: `size` shrunk to the screen, and the offset that centres it over this window. */
function centre(size: number, screenSize: number, windowAt: number, windowSize: number): [number, number] {
  size = Math.min(size, screenSize || size);
  return [size, Math.max(0, Math.round(windowAt + (windowSize - size) / 2))];
}
