/**
 * What the chat widget and the managed embed's launcher both draw with: elements built node by
 * node (text children become text nodes, never markup), a stylesheet adopted by a shadow root,
 * and the accent colour with an ink that reads on it.
 */

/** Below 480 px a widget's dialog takes the whole screen, and is modal. */
export const FULL_SCREEN = '(max-width: 479px)';

/**
 * Keeps a dialog's aria-modal true while it covers the page (FULL_SCREEN) and false beside it, as
 * the window is resized; returns the query, for what else follows it (Tab wrapping).
 */
export const modalAtFullScreen = (dialog: HTMLElement): MediaQueryList => {
  const fullScreen = window.matchMedia(FULL_SCREEN);
  const render = () => dialog.setAttribute('aria-modal', String(fullScreen.matches));
  fullScreen.addEventListener('change', render);
  render();
  return fullScreen;
};

/** `document.createElement` with attributes and children; text children become text nodes. */
export const el = <K extends keyof HTMLElementTagNameMap>(
  tag: K,
  attributes: Record<string, string> = {},
  ...children: (Node | string)[]
): HTMLElementTagNameMap[K] => {
  const element = document.createElement(tag);
  for (const name of Object.keys(attributes)) element.setAttribute(name, attributes[name]!);
  element.append(...children);
  return element;
};

export const adoptStyles = (root: ShadowRoot, css: string) => {
  // A constructed stylesheet is not an inline <style>, so a host page's strict CSP allows it.
  try {
    const sheet = new CSSStyleSheet();
    sheet.replaceSync(css);
    root.adoptedStyleSheets = [sheet];
  } catch {
    root.append(el('style', {}, css));
  }
};

/**
 * The element the widget lives in, on the host page: inline !important styles keep it rendered
 * whatever the page's CSS says (`* { display: none }`, `div { … }`); a custom tag matches no `div` rule.
 */
export const widgetHost = (): HTMLElement => {
  const host = document.createElement('careerbot-chat');
  for (const [property, value] of [
    ['display', 'block'],
    ['position', 'static'],
    ['visibility', 'visible'],
    ['opacity', '1'],
    ['width', '0'],
    ['height', '0'],
    ['margin', '0'],
    ['padding', '0'],
    ['border', '0'],
  ] as const) {
    host.style.setProperty(property, value, 'important');
  }
  return host;
};

const THEME = /^#[0-9a-f]{6}$/i;

/** WCAG relative luminance of a #rrggbb colour, 0 (black) to 1 (white). */
const relativeLuminance = (hex: string): number => {
  const [r, g, b] = [1, 3, 5].map((at) => {
    const channel = parseInt(hex.slice(at, at + 2), 16) / 255;
    return channel <= 0.03928 ? channel / 12.92 : ((channel + 0.055) / 1.055) ** 2.4;
  }) as [number, number, number];
  return 0.2126 * r + 0.7152 * g + 0.0722 * b;
};

/** The owner's colour (or the default) as the accent, and text on it: dark on a light colour, white on a dark one. */
export const setAccent = (host: HTMLElement, themeColor: string | null | undefined) => {
  const theme = themeColor && THEME.test(themeColor) ? themeColor : '#4f46e5';
  host.style.setProperty('--careerbot-accent', theme, 'important');
  host.style.setProperty('--careerbot-accent-ink', relativeLuminance(theme) > 0.4 ? '#1c2430' : '#ffffff', 'important');
};
