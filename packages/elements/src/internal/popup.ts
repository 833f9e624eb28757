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
  const width = Math.min(POPUP_SIZE.width, screen.availWidth || POPUP_SIZE.width);
  const height = Math.min(POPUP_SIZE.height, screen.availHeight || POPUP_SIZE.height);
  const left = Math.max(0, Math.round(window.screenX + (window.outerWidth - width) / 2));
  const top = Math.max(0, Math.round(window.screenY + (window.outerHeight - height) / 2));
  let popup: Window | null = null;
  try {
    popup = window.open(url, name, `popup=yes,width=${width},height=${height},left=${left},top=${top}`);
  } catch {
    // Some embedded browsers throw instead of returning null.
    popup = null;
  }
  popup?.focus();
  return popup;
}
